import type { TopicNames } from '@baton/kafka';

/** The consumer group of an agent: all instances of one agent share its inbox's partitions. */
export function agentGroupId(topics: TopicNames, agentId: string): string {
  return `${topics.prefix}.agent.${agentId}`;
}

/** The consumer group of an agent's control topic, shared by its instances like the inbox's. */
export function controlGroupId(topics: TopicNames, agentId: string): string {
  return `${agentGroupId(topics, agentId)}.control`;
}
