import { runAgent } from '@baton/agent-sdk';
import { issuesAndRepairsAgent } from './agent.js';
import { loadRefundPolicy } from './refund-policy.js';

await runAgent(issuesAndRepairsAgent(loadRefundPolicy()));
