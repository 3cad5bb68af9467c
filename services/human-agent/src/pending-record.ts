import type { OutputRecord } from '@baton/kafka';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import { pendingEntryOf, type PendingEntry } from './pending-task.js';

/**
 * The compacted topic of the human agent's pending tasks, keyed by task_id: the last record of a
 * task is its pending question (a newer question of a task replaces the older), or a tombstone
 * once answered. Every instance reads all of it, so any instance can list and answer any task.
 */
export function pendingTopic(prefix: string): string {
  return `${prefix}.agent.human_agent.pending`;
}

interface StoredEntry {
  received_at: string;
  handoff: HandoffMessage;
}

/** The entry as a record. Only the handoff and its arrival are stored; the listing is derived on reading. */
export function pendingRecord(topic: string, entry: PendingEntry): OutputRecord {
  const stored: StoredEntry = { received_at: entry.task.received_at, handoff: entry.handoff as HandoffMessage };
  return {
    topic,
    key: entry.task.task_id,
    value: Buffer.from(JSON.stringify(stored)),
    headers: { 'content-type': 'application/json' },
  };
}

/** Reads a record's value back; throws when it is not JSON or its handoff breaks the schemas. */
export function parsePendingEntry(value: Buffer): PendingEntry {
  const stored = JSON.parse(value.toString()) as Partial<StoredEntry>;
  const receivedAt = new Date(String(stored.received_at));
  if (Number.isNaN(receivedAt.getTime())) throw new Error('pending entry has no valid received_at');
  return pendingEntryOf(parseHandoff(stored.handoff), receivedAt);
}
