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
}

/** Every consumer group whose id `include` accepts, with its state and live members. */
export async function describeConsumerGroups(
  kafka: KafkaClient,
  include: (groupId: string) => boolean,
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
    return described.groups.map((group) => ({
      groupId: group.groupId,
      state: group.state,
      members: group.members.map((member) => ({
        clientId: member.clientId,
        host: member.clientHost.replace(/^\//, ''),
        memberId: member.memberId,
      })),
    }));
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
