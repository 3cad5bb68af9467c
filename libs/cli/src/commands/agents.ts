import type { AgentStatus } from '@baton/gateway-api';
import type { Command } from '../context.js';
import { formatTable, type Column } from '../format.js';

export const AGENT_COLUMNS: readonly Column<AgentStatus>[] = [
  { header: 'AGENT', value: (agent) => agent.agent_id },
  { header: 'STATUS', value: (agent) => (agent.up ? 'up' : 'down') },
  { header: 'STATE', value: (agent) => agent.state },
  // The registry's word: null for the router, which does not register.
  { header: 'LIVE', value: (agent) => (agent.live === null ? undefined : agent.live ? 'yes' : 'no') },
  { header: 'LAG', value: (agent) => agent.lag, align: 'right' },
  { header: 'INSTANCES', value: (agent) => agent.instances.length, align: 'right' },
  {
    header: 'INSTANCE (HOST)',
    value: (agent) => agent.instances.map((instance) => `${instance.instance_id} (${instance.host})`).join(', '),
  },
  { header: 'GROUP', value: (agent) => agent.group_id },
];

/** `baton agents`: each agent and the router, up or down, live, what waits for it, with their instances. */
export const agents: Command = async (context) => {
  const answer = await context.gateway().get<{ agents: AgentStatus[] }>('/v1/agents');
  if (context.json) return context.printJson(answer);
  context.print(formatTable(AGENT_COLUMNS, answer.agents));
};
