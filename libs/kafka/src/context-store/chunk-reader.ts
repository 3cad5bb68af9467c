import { randomUUID } from 'node:crypto';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';
import { BatonError } from '@baton/errors';
import { recordHeadersOf } from '../headers/record-headers.js';
import { readerGroupId } from '../reading/reader-group.js';
import type { ChunkCollector } from './chunk-collector.js';
import type { ContextLocation } from './context-uri.js';

/**
 * What the group id of every chunk reader of `contextsTopic` starts with. It carries the topic, so
 * installations with different topic prefixes sharing a cluster use different groups, and an ACL
 * on this prefix lets a principal read stored contexts.
 */
export function contextReaderGroupPrefix(contextsTopic: string): string {
  return `${contextsTopic}.reader.`;
}

export interface ChunkReadOptions {
  kafka: KafkaClient;
  location: ContextLocation;
  /**
   * The partition's end offset when the read began. Every chunk of a reference returned by a put
   * lies below it (a put returns only after its last chunk is acknowledged), so a read that gets
   * there without every chunk will not find them by waiting.
   */
  endOffset: bigint;
  collector: ChunkCollector;
  /** Aborting stops the read; it then rejects with the signal's reason. */
  signal: AbortSignal;
  maxBytesPerPartition: number;
}

/**
 * Reads the location's partition from its offset into `collector` until the context is complete
 * (resolves) or the partition's end is reached without it (rejects with CONTEXT_NOT_FOUND).
 *
 * kafkajs (2.x) cannot be assigned a partition by hand, so this joins a group of its own that
 * never commits, and moves its position with `seek`, which kafkajs only accepts once `run` has
 * created the group's state and only applies to partitions assigned to it: hence the seek on
 * GROUP_JOIN, which is also repeated by a rejoin, whose new generation would otherwise start again
 * from the group's (uncommitted, so latest) position.
 */
export async function readChunks(options: ChunkReadOptions): Promise<void> {
  const { kafka, location, endOffset, collector, signal } = options;
  const { topic, partition, offset } = location;
  signal.throwIfAborted();
  const consumer = kafkajsClient(kafka).consumer({
    groupId: readerGroupId(`${contextReaderGroupPrefix(topic)}${randomUUID()}`),
    // Short, unlike LONG_POLL_MAX_WAIT_MS: this reader lives for one read, so it never idles and a
    // long wait saves nothing, while the disconnect that ends the read still waits out a fetch it
    // comes upon being prepared (kafkajs-fixes/consumer-fetch-waits.ts).
    maxWaitTimeInMs: 100,
    maxBytesPerPartition: options.maxBytesPerPartition,
    // Chunks are written outside transactions; other writers' open transactions must not show.
    readUncommitted: false,
  });

  let settled = false;
  let settle: (error?: unknown) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => {
      if (settled) return;
      settled = true;
      if (error === undefined) resolve();
      else reject(error);
    };
  });
  // Observed here: an abort while connecting settles it before anything awaits it.
  done.catch(() => undefined);
  const onAbort = (): void => settle(signal.reason ?? new Error('context read aborted'));
  signal.addEventListener('abort', onAbort, { once: true });

  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    // The other partitions of the topic are of no use: not fetching them saves a fetch's worth each.
    const others = (payload.memberAssignment[topic] ?? []).filter((assigned) => assigned !== partition);
    if (others.length > 0) consumer.pause([{ topic, partitions: others }]);
    consumer.seek({ topic, partition, offset: offset.toString() });
  });
  // The position comes from batch events, not from the last record seen: a batch of only control
  // records (other writers' transaction markers) advances the position but delivers no record.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.topic !== topic || payload.partition !== partition || collector.isComplete) return;
    if (BigInt(payload.lastOffset) + 1n >= endOffset) settle(collector.incomplete(endOffset));
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart) return;
    settle(
      new BatonError('KAFKA_UNAVAILABLE', `the reader of ${topic}/${partition} crashed: ${payload.error.message}`, {
        cause: payload.error,
      }),
    );
  });

  try {
    await consumer.connect();
    if (settled) return await done;
    await consumer.subscribe({ topic, fromBeginning: false });
    if (settled) return await done;
    await consumer.run({
      // With autoCommit, kafkajs's seek commits the sought offset to the group instead of moving
      // the position in memory; a reader commits nothing.
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        if (settled || batch.partition !== partition) return;
        try {
          for (const message of batch.messages) {
            collector.add(BigInt(message.offset), recordHeadersOf(message), message.value);
            if (collector.isComplete) {
              settle();
              return;
            }
          }
        } catch (error) {
          settle(error);
        }
      },
    });
    await done;
  } finally {
    signal.removeEventListener('abort', onAbort);
    await consumer.disconnect();
  }
}
