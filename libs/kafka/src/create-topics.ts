import { createKafka } from './create-kafka.js';
import { deadLetterTopic, processedIdsTopic } from './topics/topic-names.js';

export interface TopicSpec {
  topic: string;
  /** @default the broker's num.partitions */
  numPartitions?: number;
  /** @default the broker's default.replication.factor */
  replicationFactor?: number;
  configEntries?: { name: string; value: string }[];
}

/** How long processed ids are remembered: a duplicate older than this is no longer recognised. */
export const DEFAULT_DEDUPE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000; // 7 days

export interface ConsumerTopicsOptions {
  numPartitions: number;
  replicationFactor: number;
  /** @default 7 days */
  dedupeRetentionMs?: number;
}

/**
 * A consumed topic with its companions: `<topic>.dlq`, and `<topic>.processed`, which must have the
 * same partition count, since the owner of source partition p keeps its ids in partition p.
 */
export function consumerTopicSpecs(topic: string, options: ConsumerTopicsOptions): TopicSpec[] {
  const { numPartitions, replicationFactor } = options;
  return [
    { topic, numPartitions, replicationFactor },
    { topic: deadLetterTopic(topic), numPartitions, replicationFactor },
    {
      topic: processedIdsTopic(topic),
      numPartitions,
      replicationFactor,
      configEntries: [
        { name: 'cleanup.policy', value: 'compact,delete' },
        { name: 'retention.ms', value: String(options.dedupeRetentionMs ?? DEFAULT_DEDUPE_RETENTION_MS) },
      ],
    },
  ];
}

/**
 * Creates the topics that do not exist yet and waits until each partition has a leader, so a
 * producer can write at once. Resolves false when every topic already existed.
 */
export async function createTopics(brokers: string[], topics: TopicSpec[]): Promise<boolean> {
  const admin = createKafka({ brokers, clientId: 'baton-create-topics' }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((spec) => !existing.has(spec.topic));
    if (missing.length === 0) return false;
    return await admin.createTopics({ topics: missing, waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}
