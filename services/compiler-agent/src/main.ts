import { runAgent } from '@baton/agent-sdk';
import { agent } from './agent.js';

await runAgent(agent);
