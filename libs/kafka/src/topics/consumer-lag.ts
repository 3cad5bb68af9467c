import type { Admin } from 'kafkajs';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

/** The watermarks of one partition, as offsets (strings, as Kafka clients give them). */
export interface PartitionWatermarks {
  partition: number;
  /** The first offset still in the log. */
  low: string;
  /** The end offset a read_committed consumer can reach (the last stable offset). */
  high: string;
}

/** A consumer group's committed offset of one partition; `-1` (or absent) when it has none. */
export interface CommittedOffset {
  partition: number;
  offset: string;
}

export interface PartitionLag {
  partition: number;
  /** Offsets between the group's committed position and the end of the partition. */
  lag: number;
}

/**
 * Lag per partition: the end offset minus the committed one, never below 0. A partition the group
 * has not committed yet counts from its low watermark (all it still holds is unread). The count is
 * of offsets, not records: a topic written by transactions ends in commit markers, which take an
 * offset each; ExactlyOnceConsumer commits past them, so a group of it that processed everything
 * lags by 0.
 */
export function consumerLag(
  watermarks: readonly PartitionWatermarks[],
  committed: readonly CommittedOffset[],
): PartitionLag[] {
  const committedBy = new Map(committed.map(({ partition, offset }) => [partition, BigInt(offset)]));
  return [...watermarks]
    .sort((a, b) => a.partition - b.partition)
    .map(({ partition, low, high }) => {
      const position = committedBy.get(partition);
      const from = position === undefined || position < 0n ? BigInt(low) : position;
      const lag = BigInt(high) - from;
      return { partition, lag: lag > 0n ? Number(lag) : 0 };
    });
}

/**
 * The lag of consumer group `groupId` on every partition of `topic`, read with a connected admin
 * client: two requests, the topic's watermarks and the group's committed offsets.
 */
export async function fetchConsumerLag(admin: Admin, groupId: string, topic: string): Promise<PartitionLag[]> {
  const [watermarks, groupOffsets] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const committed = groupOffsets.find((entry) => entry.topic === topic)?.partitions ?? [];
  return consumerLag(watermarks, committed);
}

/**
 * Reads one group's lag on one topic on demand (a metrics scrape, say) over an admin connection
 * opened at the first read and kept; a failed connect is tried again at the next read.
 */
export class ConsumerLagReader {
  private readonly admin: Admin;
  private connected: Promise<void> | undefined;
  private closed = false;

  constructor(
    kafka: KafkaClient,
    private readonly groupId: string,
    private readonly topic: string,
  ) {
    this.admin = kafkajsClient(kafka).admin();
  }

  async read(): Promise<PartitionLag[]> {
    if (this.closed) throw new Error('the consumer lag reader is closed');
    this.connected ??= this.admin.connect().catch((error: unknown) => {
      this.connected = undefined;
      throw error;
    });
    await this.connected;
    return fetchConsumerLag(this.admin, this.groupId, this.topic);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.connected === undefined) return;
    await this.connected.catch(() => undefined);
    this.connected = undefined;
    await this.admin.disconnect();
  }
}
