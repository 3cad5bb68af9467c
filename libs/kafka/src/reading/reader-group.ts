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
 * kafkajs's `sessionTimeout`, `heartbeatInterval` and `rebalanceTimeout` for a reader group. The
 * group has one member and an id no other process uses, so the session guards nothing: no other
 * member waits for a silent one (a killed reader's group just lingers until it expires), and a
 * group of one never rebalances. A heartbeat a third of the session, as Kafka advises, keeps it:
 * every 30 s, where kafkajs's defaults (30 s, 3 s) made heartbeats a quarter of an idle reader's
 * requests, and at 10 s the readers' heartbeats were still 4.5 of the 25 requests a second the
 * idle `npm start` fleet sent the broker (its request log, 28 s).
 *
 * The rebalance timeout is how long the coordinator holds a join for the members it knows to join
 * again. When the broker coordinating a reader's group dies, kafkajs takes the reader up again as
 * a new member, and the next coordinator, which loaded the group with its old member, held that
 * join for the old member, which never comes: kafkajs's default of 60 s, a reader standing still
 * for over a minute on a cluster of three (a completion counter read 75 s behind in the chaos run
 * with its group coordinator killed). The only member it can wait for is the reader itself.
 */
export const READER_GROUP_TIMING = Object.freeze({
  sessionTimeout: 90_000,
  heartbeatInterval: 30_000,
  rebalanceTimeout: 5_000,
});
