import { LONG_POLL_MAX_WAIT_MS } from '../reading/long-poll.js';

/** How an exactly-once consumer trades latency for throughput; every field has a default. */
export interface ConsumerTuning {
  /** Messages whose handlers run at the same time in one instance, across its partitions. */
  maxConcurrency: number;
  /** Messages received and not yet committed in one instance; past it, fetching waits. */
  maxBuffered: number;
  /**
   * The bytes (values and keys) of those messages, about: past it, fetching waits too, so a topic of
   * large handoffs is not buffered as deep as one of small ones. A larger message still comes, alone.
   */
  maxBufferedBytes: number;
  /** The longest a finished message waits for its transaction while other work is in flight. */
  commitIntervalMs: number;
  /** Consumed messages per transaction, at most. */
  commitMaxMessages: number;
  /** Output bytes per transaction, about; a larger output still goes, alone. */
  commitMaxBytes: number;
  /**
   * How long the broker holds a fetch when nothing new has arrived. A record is fetched as soon as it
   * arrives whatever the wait, and a stop does not wait for the fetch in flight; an idle instance
   * fetches once per wait, and a member learns of a rebalance at its first heartbeat after a fetch
   * returns, so this trades an idle consumer's requests (and the broker's work for them) against how
   * soon a rebalance can complete.
   */
  fetchWaitMs: number;
  /**
   * How much one fetch asks of each partition (a larger first batch still comes whole). kafkajs
   * decodes every record of a fetch at once, where the Java client decodes as it hands records out,
   * so records fetched past the buffer's room wait decoded in memory.
   */
  fetchMaxBytesPerPartition: number;
  /**
   * Processed message ids an instance remembers per source partition, besides the processed-id
   * topic's retention: a duplicate whose first copy is older than either is processed again. An id
   * costs about 90 bytes of memory.
   */
  dedupeMaxIdsPerPartition: number;
  /**
   * How long the group waits for a silent member before giving its partitions to the others. An
   * instance that crashed holds its partitions this long: a replacement that joins waits for it. A
   * heartbeat goes every third of it, between fetches, so a fetch wait is at most a third of it.
   */
  sessionTimeoutMs: number;
}

/** The broker's defaults for group.min.session.timeout.ms and group.max.session.timeout.ms. */
export const SESSION_TIMEOUT_BOUNDS_MS = { min: 6_000, max: 1_800_000 } as const;

export const DEFAULT_MAX_CONCURRENCY = 64;

export const DEFAULT_CONSUMER_TUNING: Readonly<ConsumerTuning> = Object.freeze({
  maxConcurrency: DEFAULT_MAX_CONCURRENCY,
  // Deep enough that a partition's transactions carry several hundred messages under load: the
  // buffer holds the messages of the transactions in flight too, so it bounds their size. Draining
  // 20,000 handoffs through router and agent (bench/drain.ts, 6 partitions), 2,000 made about 100
  // transactions each and 6,000 about 50 (a kafkajs relay with one transaction per fetched batch:
  // about 45); the broker's CPU per handoff 62-65 -> 45-55 us (two runs each, alternating). 8,000
  // made about 40, at 10-15 MiB more RSS for the router. Each message held costs about a kilobyte
  // of heap besides its bytes, which maxBufferedBytes bounds.
  maxBuffered: 6_000,
  maxBufferedBytes: 16 * 1024 * 1024,
  // Kafka Streams' commit.interval.ms under exactly_once_v2.
  commitIntervalMs: 100,
  commitMaxMessages: 1_000,
  commitMaxBytes: 4 * 1024 * 1024,
  // The readers' long poll: the engine's consumers are most of an idle fleet's fetches (an agent has
  // two), and neither a stop nor a take-up waits for a fetch in flight (see LONG_POLL_MAX_WAIT_MS).
  // Half the heartbeat interval (a third of the session): an idle member heartbeats after every
  // second fetch.
  fetchWaitMs: LONG_POLL_MAX_WAIT_MS,
  // kafkajs's default is 1 MiB: about 3,000 of the bench's handoffs a partition, 18,000 for six,
  // decoded at once while the buffer takes a third of them. With 256 KiB (and a buffer of 5,000) the
  // router's peak RSS draining 20,000 handoffs was 154 and 160 MiB against 164 and 169 (two runs
  // each, alternating), at the same throughput and CPU.
  fetchMaxBytesPerPartition: 256 * 1024,
  // About 9 MiB a partition. A partition that takes 100 handoffs a second remembers its last 17
  // minutes (a sender's retries and republishes come within seconds or minutes), one that takes 10
  // a second nearly 3 hours; bounded by the retention alone (7 days), the ids of 100 a second alone
  // would outgrow a 384 MiB pod within half a day.
  dedupeMaxIdsPerPartition: 100_000,
  // Kafka's consumer default (session.timeout.ms, 45 s since 3.0) is longer; a crashed instance's
  // tasks wait this long, while a JVM-free Node process rarely pauses near it.
  sessionTimeoutMs: 30_000,
});

/** `overrides` over the defaults, checked: a bad value is a programming error, reported at construction. */
export function consumerTuning(overrides: Partial<ConsumerTuning> = {}): Readonly<ConsumerTuning> {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  const tuning = { ...DEFAULT_CONSUMER_TUNING, ...defined };
  for (const [name, value] of Object.entries(tuning)) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, not ${value}`);
  }
  if (tuning.maxBuffered < tuning.maxConcurrency) {
    throw new RangeError(
      `maxBuffered (${tuning.maxBuffered}) must be at least maxConcurrency (${tuning.maxConcurrency})`,
    );
  }
  if (tuning.fetchWaitMs * 3 > tuning.sessionTimeoutMs) {
    throw new RangeError(
      `fetchWaitMs (${tuning.fetchWaitMs}) must be at most a third of sessionTimeoutMs (${tuning.sessionTimeoutMs})`,
    );
  }
  return Object.freeze(tuning);
}
