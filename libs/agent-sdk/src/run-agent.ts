import { buildHandoffService, createLogger, loadServiceConfig, runService } from '@baton/runtime';
import type { AgentDefinition } from './agent-definition.js';
import { agentService } from './agent-service.js';

/** An agent service's whole main.ts: read the environment, start, and drain on SIGTERM. */
export function runAgent(agent: AgentDefinition): Promise<void> {
  const name = `agent.${agent.id}`;
  return runService(
    () => buildHandoffService(agentService(agent), loadServiceConfig(name)).service,
    createLogger(name),
  );
}
