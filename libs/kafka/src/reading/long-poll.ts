/**
 * How long a fetch waits on the broker when there is nothing new to read (kafkajs's
 * `maxWaitTimeInMs`), for every reader that follows a topic live and, by default, for the engine's
 * consumers (ConsumerTuning.fetchWaitMs). The broker answers a waiting fetch as soon as a record
 * arrives, so a long wait adds no latency; an idle consumer sends one fetch per wait, each naming
 * every partition it reads (for the gateway's reader of every DLQ, about a hundred). Nor does it
 * slow a stop or a resumed partition: kafkajs waited out the fetch in flight for both, and no
 * longer does (kafkajs-fixes/consumer-fetch-waits.ts). Measured with the `npm start` fleet idle,
 * 60 s, on one broker, the engine's consumers at 2 s, then 6 s, then 10 s: the broker 4.91 ->
 * 3.56 and 3.45 -> 3.42 % of a core; the heartbeats between fetches (every 10 s) then dominate.
 */
export const LONG_POLL_MAX_WAIT_MS = 5_000;

/**
 * The wait of a reader that batches (TopicReaderOptions.batched): it takes what arrived once per
 * this window. The window is a latency, unlike LONG_POLL_MAX_WAIT_MS: the broker holds each such
 * fetch for all of it.
 */
export const BATCH_WINDOW_MS = 1_000;

/**
 * kafkajs's `minBytes` for a reader that batches: more than a slowly-changing topic gathers in
 * BATCH_WINDOW_MS, so the broker holds each fetch for the whole window and then answers with
 * everything that arrived meanwhile, instead of at the first record. A fetch with at least this
 * much to read (a catch-up of a large topic) is answered at once.
 */
export const BATCHED_FETCH_MIN_BYTES = 1024 * 1024;
