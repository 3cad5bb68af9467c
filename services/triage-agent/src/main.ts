import { runAgent } from '@baton/agent-sdk';
import { modelAgentFromEnv } from '@baton/model-agents';
import { agent, TRIAGE_AGENT } from './agent.js';
import { modelTriageAgent } from './model-agent.js';

await runAgent({
  id: TRIAGE_AGENT,
  create: async (logger) => (await modelAgentFromEnv(modelTriageAgent, logger)) ?? agent,
});
