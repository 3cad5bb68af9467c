/**
 * How long a fetch waits on the broker when there is nothing new to read (kafkajs's
 * `maxWaitTimeInMs`), for every reader that follows a topic live (the engine's consumers wait
 * ConsumerTuning.fetchWaitMs, twice this by default; readers of quiet topics wait
 * QUIET_TOPIC_MAX_WAIT_MS). The broker answers a waiting fetch as soon as a record arrives, so a
 * long wait adds no latency; an idle consumer sends one fetch per wait instead of one every few
 * tens of milliseconds. What a long wait does cost is the
 * stop: kafkajs's `consumer.disconnect()` waits for the fetch in flight, so a stop can take up to
 * this long per consumer.
 */
export const LONG_POLL_MAX_WAIT_MS = 1_000;

/**
 * kafkajs's `minBytes` for a reader that batches (TopicReaderOptions.batched): more than a
 * slowly-changing topic gathers in LONG_POLL_MAX_WAIT_MS, so the broker holds each fetch for the
 * whole wait and then answers with everything that arrived meanwhile, instead of at the first
 * record. A fetch with at least this much to read (a catch-up of a large topic) is answered at once.
 */
export const BATCHED_FETCH_MIN_BYTES = 1024 * 1024;

/**
 * The fetch wait of a live reader of topics written rarely (dead letters, the audit trail of
 * replays): each of its fetches names every partition of its topics, so an idle reader's fetch a
 * second is, for the gateway's reader of every DLQ, a request about a hundred partitions wide every
 * second, for the gateway and the broker alike. A record still arrives at once; the price is the
 * stop, which waits up to this long for the fetch in flight. Measured with the `npm start` fleet
 * idle, 60 s, paired on one broker, the gateway's DLQ and audit readers at 1 s, then at this wait:
 * the gateway 1.23 -> 0.90 % of a core.
 */
export const QUIET_TOPIC_MAX_WAIT_MS = 5_000;
