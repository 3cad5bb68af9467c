import { setTimeout as sleep } from 'node:timers/promises';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

/**
 * The high watermark of every non-empty partition of `topic`. A topic created a moment ago may
 * answer NOT_LEADER_FOR_PARTITION to ListOffsets while its leader settles, so retriable errors
 * are retried until `timeoutMs`.
 */
export async function fetchEndOffsets(
  kafka: KafkaClient,
  topic: string,
  timeoutMs = 30_000,
): Promise<Map<number, bigint>> {
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        const offsets = await admin.fetchTopicOffsets(topic);
        return new Map(
          offsets
            .filter(({ high, low }) => BigInt(high) > BigInt(low))
            .map(({ partition, high }) => [partition, BigInt(high)]),
        );
      } catch (error) {
        if (!(error as { retriable?: boolean }).retriable || Date.now() >= deadline) throw error;
        await sleep(100);
      }
    }
  } finally {
    await admin.disconnect();
  }
}
