import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

/**
 * Deletes the cluster's topics that `include` accepts and resolves with their names: what a run
 * on a shared broker made, so its partitions do not pile up there (a broker keeps every partition
 * in memory; a small one runs out after some thousands).
 */
export async function deleteTopics(kafka: KafkaClient, include: (topic: string) => boolean): Promise<string[]> {
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter(include).sort();
    if (topics.length > 0) await admin.deleteTopics({ topics });
    return topics;
  } finally {
    await admin.disconnect();
  }
}
