import { kafkajsClient, type KafkaClient } from '../kafka-client.js';
import { fetchTopicWatermarks } from './topic-watermarks.js';

/**
 * The high watermark of every non-empty partition of `topic`; retriable errors (a topic created a
 * moment ago, its leaders settling) are tried again for up to `timeoutMs`.
 */
export async function fetchEndOffsets(
  kafka: KafkaClient,
  topic: string,
  timeoutMs = 30_000,
): Promise<Map<number, bigint>> {
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  try {
    const offsets = await fetchTopicWatermarks(admin, topic, AbortSignal.timeout(timeoutMs));
    return new Map(
      offsets
        .filter(({ high, low }) => BigInt(high) > BigInt(low))
        .map(({ partition, high }) => [partition, BigInt(high)]),
    );
  } finally {
    await admin.disconnect();
  }
}
