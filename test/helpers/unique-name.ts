import { randomBytes } from 'node:crypto';

/**
 * A topic, group or subject name no other test or earlier run uses, so tests share one broker
 * without seeing one another's records. Kafka allows [a-zA-Z0-9._-] in topic names.
 */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}
