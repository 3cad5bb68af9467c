import { randomUUID } from 'node:crypto';

/** Generated once per process: every reader group this process joins ends with it. */
const PROCESS_TOKEN = randomUUID().slice(0, 8);

/**
 * The group id of a reader that never commits and reads whole topics. It is unique to this
 * process: a restarted instance (same instance id) must not join the group its killed predecessor
 * still belongs to, or it waits the session timeout out before reading anything.
 */
export function readerGroupId(base: string): string {
  return `${base}.${PROCESS_TOKEN}`;
}

/**
 * kafkajs's `sessionTimeout` and `heartbeatInterval` for a reader group. The group has one member
 * and an id no other process uses, so the session guards nothing: no other member waits for a
 * silent one (a killed reader's group just lingers until it expires), and a group of one never
 * rebalances. A heartbeat a third of the session, as Kafka advises, keeps it: every 30 s, where
 * kafkajs's defaults (30 s, 3 s) made heartbeats a quarter of an idle reader's requests, and at
 * 10 s the readers' heartbeats were still 4.5 of the 25 requests a second the idle `npm start`
 * fleet sent the broker (its request log, 28 s).
 */
export const READER_GROUP_TIMING = Object.freeze({ sessionTimeout: 90_000, heartbeatInterval: 30_000 });
