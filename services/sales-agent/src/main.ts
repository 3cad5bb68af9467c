import { runAgent } from '@baton/agent-sdk';
import { modelAgentFromEnv } from '@baton/model-agents';
import { agent, SALES_AGENT } from './agent.js';
import { modelSalesAgent } from './model-agent.js';

await runAgent({
  id: SALES_AGENT,
  create: async (logger) => (await modelAgentFromEnv(modelSalesAgent, logger)) ?? agent,
});
