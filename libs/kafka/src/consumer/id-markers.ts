/** How a message finished: its effects committed, or it went to the dead-letter topic. */
export type MessageResult = 'processed' | 'dead_lettered';

export interface MarkedId {
  messageId: string;
  result: MessageResult;
}

/** Keys of the records that mark the messages of one transaction. */
const MARKERS_KEY_PREFIX = '__baton.markers__/';

/** What one transaction's marker record holds. */
interface MarkersValue {
  processed: string[];
  dead_lettered: string[];
}

/**
 * The one record that marks every message of a transaction on a source partition, keyed by the
 * source offset of its first message (unique in the partition: offsets are). One record per
 * transaction rather than one per message: a message's effects were three records (its output,
 * its outcome event, its marker), and this makes them two. The topic keeps markers for the dedupe
 * retention (compact,delete), which is all a key unique per transaction needs.
 */
export function markersRecord(
  partition: number,
  firstOffset: string,
  marked: readonly MarkedId[],
): { key: string; value: string; partition: number } {
  const value: MarkersValue = { processed: [], dead_lettered: [] };
  for (const { messageId, result } of marked) value[result].push(messageId);
  return { key: `${MARKERS_KEY_PREFIX}${firstOffset}`, value: JSON.stringify(value), partition };
}

/**
 * The ids a record of the processed-ids topic marks, in order: a transaction's marker record, or
 * the one-message marker of earlier versions (keyed by the message id, the result in its value).
 */
export function markedIds(key: string, value: Buffer | null): MarkedId[] {
  const parsed = parseJson(value);
  if (!key.startsWith(MARKERS_KEY_PREFIX)) {
    const result = (parsed as { result?: MessageResult } | undefined)?.result ?? 'processed';
    return [{ messageId: key, result }];
  }
  const { processed = [], dead_lettered = [] } = (parsed ?? {}) as Partial<MarkersValue>;
  return [
    ...processed.map((messageId) => ({ messageId, result: 'processed' as const })),
    ...dead_lettered.map((messageId) => ({ messageId, result: 'dead_lettered' as const })),
  ];
}

function parseJson(value: Buffer | null): unknown {
  try {
    return JSON.parse(value?.toString() ?? '{}');
  } catch {
    return undefined;
  }
}
