import type { Consumer } from 'kafkajs';
import { BatonError } from '@baton/errors';
import { BATCH_WINDOW_MS, BATCHED_FETCH_MIN_BYTES, LONG_POLL_MAX_WAIT_MS } from './long-poll.js';
import { READER_GROUP_TIMING, readerGroupId } from './reader-group.js';
import { consumedRecord, type ConsumedRecord } from '../consumer/consumed-record.js';
import { ReadProgress, parsePartitionKey, partitionKey, type PartitionKey } from './read-progress.js';
import { fetchEndOffsets } from '../topics/end-offsets.js';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

export interface TopicReaderOptions {
  kafka: KafkaClient;
  /**
   * A group of the reader's own, which never commits: every start reads the topics from the
   * beginning (or the end, see `fromBeginning`). Give each process its own, so each instance sees
   * every partition.
   */
  groupId: string;
  topics: string[];
  /**
   * Where a start reads from: the first record (the default), or only records that arrive after
   * the reader joined (for tailing).
   */
  fromBeginning?: boolean;
  /**
   * When set, `start` resolves only once every partition of the topics has been read up to the end
   * offset it had when `start` was called (a view that must be complete before it is used), and
   * rejects with KAFKA_UNAVAILABLE after `timeoutMs` (default 60 s). Only with `fromBeginning`.
   */
  catchUp?: { timeoutMs?: number };
  /**
   * Whether the reader goes on fetching as records arrive (the default). With `false` (and
   * `catchUp`) it fetches nothing once caught up, until `refresh()` asks it to read on: for a view
   * used rarely, which then must be current, an idle reader costs neither the broker nor the
   * process a fetch: with every partition paused its consumer sleeps until a refresh resumes one
   * (kafkajs-fixes/consumer-fetch-waits.ts).
   */
  live?: boolean;
  /**
   * How long the broker holds a fetch with nothing new to read (kafkajs's `maxWaitTimeInMs`). A
   * record still arrives at once; a longer wait saves fetches of an idle reader, each a request with
   * every partition of the topics. @default LONG_POLL_MAX_WAIT_MS, or BATCH_WINDOW_MS when `batched`
   */
  maxWaitMs?: number;
  /**
   * Whether a live reader takes what arrives once per BATCH_WINDOW_MS (kafkajs's `minBytes`
   * of BATCHED_FETCH_MIN_BYTES) rather than each record as it arrives (the default). For a topic
   * written to all the time and read by a view that may be up to that long behind (the agent
   * registry: every instance's heartbeat is a record), the reader then wakes once a wait instead of
   * once a record. The price: a record is read up to BATCH_WINDOW_MS after it arrives, and so
   * is the end of a catch-up with less than BATCHED_FETCH_MIN_BYTES to read.
   */
  batched?: boolean;
  onRecord(record: ConsumedRecord): void | Promise<void>;
}

/** How long a reader's stop waits for its group leave; see TopicReader.stop. */
export const READER_STOP_GRACE_MS = 1_000;

/**
 * Reads whole topics, from the first record on and then as records arrive, committed records
 * only. For views kept in memory (timelines, dead letters, the audit trail, the agent registry)
 * and for tailing.
 */
export class TopicReader {
  private readonly consumer: Consumer;
  private readonly progress = new ReadProgress();
  /** Drops each read still waiting, rejecting it: on stop. */
  private readonly cancels = new Set<(error: Error) => void>();
  private running = false;
  private disconnecting: Promise<void> | undefined;
  /** The refresh under way, which callers meanwhile share. */
  private refreshing: Promise<void> | undefined;

  constructor(private readonly options: TopicReaderOptions) {
    if (options.live === false && options.catchUp === undefined) {
      throw new Error('a TopicReader that is not live must catch up: it reads only to the ends it is asked for');
    }
    if (options.live === false && options.batched === true) {
      throw new Error('a TopicReader that is not live cannot batch: a refresh would wait out every fetch');
    }
    this.consumer = kafkajsClient(options.kafka).consumer({
      groupId: readerGroupId(options.groupId),
      maxWaitTimeInMs: options.maxWaitMs ?? (options.batched === true ? BATCH_WINDOW_MS : LONG_POLL_MAX_WAIT_MS),
      minBytes: options.batched === true ? BATCHED_FETCH_MIN_BYTES : 1,
      ...READER_GROUP_TIMING,
      readUncommitted: false,
    });
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      this.running = true;
      // kafkajs reads a group that never commits from the start again after each join.
      this.progress.restarted();
      if (options.live === false) this.fetchOnlyWanted(payload.memberAssignment);
    });
    this.consumer.on(this.consumer.events.CRASH, () => {
      this.running = false;
    });
    // The position comes from the consumer's batch events rather than the last record seen: a
    // partition written by transactions ends in a commit marker, which takes an offset but is never
    // delivered as a record. Synchronous, so a partition is paused before its next batch is handled.
    this.consumer.on(this.consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      const key = partitionKey(payload.topic, payload.partition);
      this.progress.advanced(key, BigInt(payload.lastOffset) + 1n);
      if (options.live === false && !this.progress.wanted(key)) {
        this.consumer.pause([{ topic: payload.topic, partitions: [payload.partition] }]);
      }
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    const caughtUp = this.options.catchUp === undefined ? undefined : this.readTo(await this.endOffsets());
    // Observed here so a timeout while connecting is not an unhandled rejection.
    caughtUp?.catch(() => undefined);
    await this.consumer.connect();
    if (this.options.topics.length > 0) {
      await this.consumer.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning ?? true });
    }
    await this.consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, partition, message }) => {
        await this.options.onRecord(consumedRecord(topic, partition, message));
      },
    });
    this.running = true;
    await caughtUp;
  }

  /**
   * Resolves once every partition has been read up to the end offset it has now; rejects with
   * KAFKA_UNAVAILABLE after the catch-up timeout. Only after `start`, with `catchUp`. Callers while
   * a refresh is under way share it, and with it the end offsets it asked for when it began.
   */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => this.readTo(await this.endOffsets()))().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /**
   * Stops reading and leaves the group. That takes a round trip: the fetch in flight is given up
   * (kafkajs-fixes/consumer-fetch-waits.ts), unless its request was still being prepared, and then
   * it is waited for, up to the fetch wait; so is a broker that is slow or gone. So stop waits at
   * most READER_STOP_GRACE_MS and lets the rest finish in the background: a reader group never
   * commits and belongs to this process alone, so nothing waits on its leave, and a process that
   * exits meanwhile only leaves the broker to expire the member.
   */
  async stop(): Promise<void> {
    this.running = false;
    for (const cancel of [...this.cancels]) cancel(new Error('the reader stopped'));
    this.disconnecting ??= this.consumer.disconnect();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, READER_STOP_GRACE_MS);
    });
    try {
      await Promise.race([this.disconnecting, grace]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** `<topic>:<partition>` to the end offset of each partition that has records, when called. */
  private async endOffsets(): Promise<Map<string, bigint>> {
    const ends = new Map<string, bigint>();
    for (const topic of this.options.topics) {
      for (const [partition, end] of await fetchEndOffsets(this.options.kafka, topic)) {
        ends.set(partitionKey(topic, partition), end);
      }
    }
    return ends;
  }

  /**
   * Resolves when every partition of `ends` has been read to its end offset; a reader that is not
   * live fetches those partitions meanwhile, each up to its end offset.
   */
  private readTo(ends: Map<string, bigint>): Promise<void> {
    const timeoutMs = this.options.catchUp?.timeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      const fail = (error: Error): void => {
        clearTimeout(timer);
        drop();
        this.cancels.delete(fail);
        reject(error);
      };
      const timer = setTimeout(
        () =>
          fail(
            new BatonError(
              'KAFKA_UNAVAILABLE',
              `${this.options.topics.join(', ')} not read to the end within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      this.cancels.add(fail);
      const drop = this.progress.wait(ends, () => {
        clearTimeout(timer);
        this.cancels.delete(fail);
        resolve();
      });
      // Before run(), GROUP_JOIN resumes what is wanted.
      if (this.options.live === false && this.running) this.resume([...this.progress.behind(ends).keys()]);
    });
  }

  private resume(keys: PartitionKey[]): void {
    for (const topic of this.options.topics) {
      const partitions = keys.flatMap((key) => {
        const parsed = parsePartitionKey(key);
        return parsed.topic === topic ? [parsed.partition] : [];
      });
      if (partitions.length > 0) this.consumer.resume([{ topic, partitions }]);
    }
  }

  /**
   * Fetches the assigned partitions a read waits for and pauses the others, one by one: kafkajs's
   * pause of a whole topic is undone by the next pause of one of its partitions.
   */
  private fetchOnlyWanted(assignment: Record<string, number[]>): void {
    const wanted = this.progress.wantedKeys();
    for (const topic of this.options.topics) {
      const partitions = assignment[topic] ?? [];
      const resume = partitions.filter((partition) => wanted.has(partitionKey(topic, partition)));
      this.consumer.resume([{ topic, partitions: resume }]);
      this.consumer.pause([{ topic, partitions: partitions.filter((partition) => !resume.includes(partition)) }]);
    }
  }
}
