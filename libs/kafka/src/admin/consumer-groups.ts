import type { Admin } from 'kafkajs';
import { fetchConsumerLag } from '../topics/consumer-lag.js';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

export interface GroupMember {
  /** The member's client id: Baton services use their instance id. */
  clientId: string;
  host: string;
  memberId: string;
}

export interface ConsumerGroupStatus {
  groupId: string;
  /** The coordinator's state: Stable, PreparingRebalance, CompletingRebalance, Empty, Dead. */
  state: string;
  members: GroupMember[];
  /**
   * Offsets between the group's committed positions and the end of the topic it consumes, summed
   * over its partitions; absent when no topic was named for it or the topic cannot be read.
   */
  lag?: number;
}

/**
 * Every consumer group whose id `include` accepts, with its state and live members, and its lag on
 * the topic `consumedTopic` names for it, over the same admin connection.
 */
export async function describeConsumerGroups(
  kafka: KafkaClient,
  include: (groupId: string) => boolean,
  consumedTopic: (groupId: string) => string | undefined = () => undefined,
): Promise<ConsumerGroupStatus[]> {
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const ids = groups
      .map(({ groupId }) => groupId)
      .filter(include)
      .sort();
    if (ids.length === 0) return [];
    const described = await admin.describeGroups(ids);
    return await Promise.all(
      described.groups.map(async (group) => {
        const lag = await groupLag(admin, group.groupId, consumedTopic(group.groupId));
        return {
          groupId: group.groupId,
          state: group.state,
          members: group.members.map((member) => ({
            clientId: member.clientId,
            host: member.clientHost.replace(/^\//, ''),
            memberId: member.memberId,
          })),
          ...(lag === undefined ? {} : { lag }),
        };
      }),
    );
  } finally {
    await admin.disconnect();
  }
}

/** The names of the cluster's topics that `include` accepts, sorted. */
export async function listTopicNames(kafka: KafkaClient, include: (topic: string) => boolean): Promise<string[]> {
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  try {
    return (await admin.listTopics()).filter(include).sort();
  } finally {
    await admin.disconnect();
  }
}

/** A topic not created yet, or one the client may not describe, has no lag to tell: undefined. */
async function groupLag(admin: Admin, groupId: string, topic: string | undefined): Promise<number | undefined> {
  if (topic === undefined) return undefined;
  try {
    const partitions = await fetchConsumerLag(admin, groupId, topic);
    return partitions.reduce((sum, partition) => sum + partition.lag, 0);
  } catch {
    return undefined;
  }
}
