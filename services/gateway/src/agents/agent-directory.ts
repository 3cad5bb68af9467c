import type { AgentStatus } from '@baton/gateway-api';
import { describeConsumerGroups, type ConsumerGroupStatus, type Kafka } from '@baton/kafka';

/**
 * The agent id a consumer group belongs to: `<prefix>.agent.<id>` for agents, `<prefix>.router`
 * for the router. Other groups (the processed-id and view readers, say) belong to no agent.
 */
export function agentIdOfGroup(prefix: string, groupId: string): string | undefined {
  if (groupId === `${prefix}.router`) return 'router';
  const agent = groupId.startsWith(`${prefix}.agent.`) ? groupId.slice(`${prefix}.agent.`.length) : '';
  return agent !== '' && !agent.includes('.') ? agent : undefined;
}

export function agentStatus(prefix: string, group: ConsumerGroupStatus): AgentStatus {
  return {
    agent_id: agentIdOfGroup(prefix, group.groupId) ?? group.groupId,
    group_id: group.groupId,
    up: group.members.length > 0,
    state: group.state,
    instances: group.members
      .map((member) => ({ instance_id: member.clientId, host: member.host }))
      .sort((a, b) => a.instance_id.localeCompare(b.instance_id)),
  };
}

/**
 * Agent services and their instances, as the Kafka group coordinator knows them: every instance
 * of an agent is a member of the agent's consumer group while it runs.
 */
export async function listAgents(kafka: Kafka, prefix: string): Promise<AgentStatus[]> {
  const groups = await describeConsumerGroups(kafka, (groupId) => agentIdOfGroup(prefix, groupId) !== undefined);
  return groups.map((group) => agentStatus(prefix, group));
}
