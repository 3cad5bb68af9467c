import { runAgent } from '@baton/agent-sdk';
import { modelAgentFromEnv } from '@baton/model-agents';
import { ISSUES_AND_REPAIRS_AGENT, issuesAndRepairsAgent } from './agent.js';
import { modelIssuesAndRepairsAgent } from './model-agent.js';
import { loadRefundPolicy } from './refund-policy.js';

await runAgent({
  id: ISSUES_AND_REPAIRS_AGENT,
  create: async (logger) =>
    (await modelAgentFromEnv(modelIssuesAndRepairsAgent, logger)) ?? issuesAndRepairsAgent(loadRefundPolicy()),
});
