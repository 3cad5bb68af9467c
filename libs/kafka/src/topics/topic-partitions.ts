import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

/** The partitions of `topic`, in order: none when the topic does not exist. */
export async function fetchTopicPartitions(kafka: KafkaClient, topic: string): Promise<number[]> {
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    return (metadata.topics[0]?.partitions ?? []).map((partition) => partition.partitionId).sort((a, b) => a - b);
  } finally {
    await admin.disconnect();
  }
}
