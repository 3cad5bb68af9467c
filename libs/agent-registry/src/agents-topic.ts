import { createTopics, type KafkaClient, type TopicSpec } from '@baton/kafka';

/**
 * The registry topic's configs. Compacted, so the latest record of each `<agent>/<instance>` key
 * (its last heartbeat, or its tombstone) is what remains; segments roll hourly so the heartbeats
 * of a running fleet are compacted away quickly and a reader's start stays short; and records older
 * than 7 days are deleted, so instances that died without deregistering do not stay forever.
 */
export const AGENTS_TOPIC_CONFIG: readonly { name: string; value: string }[] = Object.freeze([
  { name: 'cleanup.policy', value: 'compact,delete' },
  { name: 'retention.ms', value: String(7 * 24 * 60 * 60 * 1000) },
  { name: 'segment.ms', value: String(60 * 60 * 1000) },
]);

export function agentsTopicSpec(
  topic: string,
  sizing: { numPartitions: number; replicationFactor: number },
): TopicSpec {
  return { topic, ...sizing, configEntries: AGENTS_TOPIC_CONFIG.map((entry) => ({ ...entry })) };
}

/** Creates the registry topic unless it exists (every service that writes or reads it does). */
export async function ensureAgentsTopic(
  kafka: KafkaClient,
  topic: string,
  sizing: { numPartitions: number; replicationFactor: number },
): Promise<void> {
  await createTopics(kafka, [agentsTopicSpec(topic, sizing)]);
}
