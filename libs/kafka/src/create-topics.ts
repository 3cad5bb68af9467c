import { createKafka } from './create-kafka.js';

export interface TopicSpec {
  topic: string;
  /** @default the broker's num.partitions */
  numPartitions?: number;
  /** @default the broker's default.replication.factor */
  replicationFactor?: number;
}

/**
 * Creates the topics and waits until each partition has a leader, so a producer can write at
 * once. Resolves false when every topic already existed.
 */
export async function createTopics(brokers: string[], topics: TopicSpec[]): Promise<boolean> {
  const admin = createKafka({ brokers, clientId: 'baton-create-topics' }).admin();
  await admin.connect();
  try {
    return await admin.createTopics({ topics, waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}
