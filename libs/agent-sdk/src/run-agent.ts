import { buildHandoffService, createLogger, loadServiceConfig, runService, type Logger } from '@baton/runtime';
import type { AgentDefinition } from './agent-definition.js';
import { agentService } from './agent-service.js';

/** An agent whose definition is made at start, from its configuration (a model agent's provider). */
export interface AgentFactory {
  id: string;
  /** Runs once, before the service is built; its failure (a bad configuration) stops the start. */
  create(logger: Logger): AgentDefinition | Promise<AgentDefinition>;
}

/** An agent service's whole main.ts: read the environment, start, and drain on SIGTERM. */
export function runAgent(agent: AgentDefinition | AgentFactory): Promise<void> {
  const name = `agent.${agent.id}`;
  const logger = createLogger(name);
  return runService(async () => {
    const definition = 'create' in agent ? await agent.create(logger) : agent;
    return buildHandoffService(agentService(definition), loadServiceConfig(name)).service;
  }, logger);
}
