/** How an exactly-once consumer trades latency for throughput; every field has a default. */
export interface ConsumerTuning {
  /** Messages whose handlers run at the same time in one instance, across its partitions. */
  maxConcurrency: number;
  /** Messages received and not yet committed in one instance; past it, fetching waits. */
  maxBuffered: number;
  /** The longest a finished message waits for its transaction while other work is in flight. */
  commitIntervalMs: number;
  /** Consumed messages per transaction, at most. */
  commitMaxMessages: number;
  /** Output bytes per transaction, about; a larger output still goes, alone. */
  commitMaxBytes: number;
  /**
   * How long the broker holds a fetch when nothing new has arrived. A record is fetched as soon as it
   * arrives whatever the wait; an idle instance fetches once per wait, and a stop waits for the fetch
   * in flight, so this trades an idle consumer's requests (and the broker's work for them) against
   * the time a stop takes.
   */
  fetchWaitMs: number;
}

export const DEFAULT_MAX_CONCURRENCY = 64;

export const DEFAULT_CONSUMER_TUNING: Readonly<ConsumerTuning> = Object.freeze({
  maxConcurrency: DEFAULT_MAX_CONCURRENCY,
  maxBuffered: 2_000,
  // Kafka Streams' commit.interval.ms under exactly_once_v2.
  commitIntervalMs: 100,
  commitMaxMessages: 1_000,
  commitMaxBytes: 4 * 1024 * 1024,
  // Twice the readers' long poll (LONG_POLL_MAX_WAIT_MS): the engine's consumers are most of an idle
  // fleet's fetches (an agent has two). Measured with the `npm start` fleet idle, 60 s, paired on one
  // broker: the broker 4.3 -> 3.9 % of a core, an agent about 0.52 -> 0.38 %.
  fetchWaitMs: 2_000,
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
  return Object.freeze(tuning);
}
