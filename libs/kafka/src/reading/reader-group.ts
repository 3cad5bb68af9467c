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
