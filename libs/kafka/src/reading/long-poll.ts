/**
 * How long a fetch waits on the broker when there is nothing new to read (kafkajs's
 * `maxWaitTimeInMs`), for every consumer that follows a topic live. The broker answers a waiting
 * fetch as soon as a record arrives, so a long wait adds no latency; an idle consumer sends one
 * fetch per wait instead of one every few tens of milliseconds. What a long wait does cost is the
 * stop: kafkajs's `consumer.disconnect()` waits for the fetch in flight, so a stop can take up to
 * this long per consumer.
 */
export const LONG_POLL_MAX_WAIT_MS = 1_000;
