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
 * kafkajs's `heartbeatInterval` for a reader group. The group has one member, so a heartbeat only
 * keeps its session (kafkajs's default, 30 s) alive: a third of it, as Kafka advises. At kafkajs's
 * 3 s default, heartbeats would be a quarter of an idle reader's requests.
 */
export const READER_HEARTBEAT_INTERVAL_MS = 10_000;
