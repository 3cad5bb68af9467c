/**
 * Checks exactly-once effect and per-task order from what a run published and what it observed.
 * Pure: tests and `npm run chaos` collect the records, this counts. It imports nothing, so a script
 * can use it without a test runner.
 */

/** A handoff as it was published, in publish order: its id and its task (the record key). */
export interface PublishedHandoff {
  messageId: string;
  taskId: string;
}

/** One committed record showing that a handoff took effect, and where it sits in its topic. */
export interface ObservedEffect {
  messageId: string;
  /** The record's key: the task_id of the handoff whose effect it is. */
  taskId: string | null;
  partition: number;
  offset: string;
}

export interface AuditCounts {
  published: number;
  /** Published handoffs with at least one effect. */
  tookEffect: number;
  /** Published handoffs with no effect. */
  lost: number;
  /** Effects beyond the first of a handoff: 0 for exactly once. */
  duplicated: number;
  /**
   * First effects of a handoff that came after the first effect of a handoff published after it
   * for the same task, or that sit in another partition than the task's first effect (Kafka orders
   * records within a partition only, and a task's key maps to one).
   */
  outOfOrder: number;
  /** Effects of a message id that was never published, or keyed by another task than its handoff's. */
  unexpected: number;
}

export interface Audit extends AuditCounts {
  /** True when nothing was lost, duplicated, out of order or unexpected. */
  ok: boolean;
  /** A few message ids of each kind of failure, to look up in the topics and logs. */
  examples: { lost: string[]; duplicated: string[]; outOfOrder: string[]; unexpected: string[] };
}

/**
 * Audits `observed` (in any order, a record seen twice at the same partition and offset counted
 * once, as a reader may redeliver after a rebalance) against `published` (in publish order).
 */
export function auditExactlyOnce(
  published: readonly PublishedHandoff[],
  observed: readonly ObservedEffect[],
  exampleLimit = 5,
): Audit {
  const expected = new Map<string, { taskId: string; position: number }>();
  const perTask = new Map<string, number>();
  for (const { messageId, taskId } of published) {
    const position = perTask.get(taskId) ?? 0;
    perTask.set(taskId, position + 1);
    expected.set(messageId, { taskId, position });
  }

  const examples: Audit['examples'] = { lost: [], duplicated: [], outOfOrder: [], unexpected: [] };
  const note = (kind: keyof Audit['examples'], id: string) => {
    if (examples[kind].length < exampleLimit) examples[kind].push(id);
  };
  const occurrences = new Map<string, number>();
  const taskState = new Map<string, { partition: number; maxPosition: number }>();
  let duplicated = 0;
  let outOfOrder = 0;
  let unexpected = 0;
  for (const effect of inLogOrder(observed)) {
    const handoff = expected.get(effect.messageId);
    if (handoff === undefined || handoff.taskId !== effect.taskId) {
      unexpected += 1;
      note('unexpected', effect.messageId);
      continue;
    }
    const seen = occurrences.get(effect.messageId) ?? 0;
    occurrences.set(effect.messageId, seen + 1);
    if (seen > 0) {
      duplicated += 1;
      if (seen === 1) note('duplicated', effect.messageId);
      continue;
    }
    const state = taskState.get(handoff.taskId);
    if (state === undefined) {
      taskState.set(handoff.taskId, { partition: effect.partition, maxPosition: handoff.position });
    } else if (state.partition !== effect.partition || handoff.position < state.maxPosition) {
      outOfOrder += 1;
      note('outOfOrder', effect.messageId);
    } else {
      state.maxPosition = handoff.position;
    }
  }

  let tookEffect = 0;
  for (const { messageId } of published) {
    if (occurrences.has(messageId)) tookEffect += 1;
    else note('lost', messageId);
  }
  const lost = published.length - tookEffect;
  return {
    published: published.length,
    tookEffect,
    lost,
    duplicated,
    outOfOrder,
    unexpected,
    ok: lost === 0 && duplicated === 0 && outOfOrder === 0 && unexpected === 0,
    examples,
  };
}

/** Partition by partition, each in offset order; one record per partition and offset. */
function inLogOrder(observed: readonly ObservedEffect[]): ObservedEffect[] {
  const unique = new Map<string, ObservedEffect>();
  for (const effect of observed) unique.set(`${effect.partition}:${effect.offset}`, effect);
  return [...unique.values()].sort((a, b) => {
    if (a.partition !== b.partition) return a.partition - b.partition;
    const delta = BigInt(a.offset) - BigInt(b.offset);
    return delta < 0n ? -1 : delta > 0n ? 1 : 0;
  });
}

/** One line of counts, e.g. for a script's summary or a test's output. */
export function formatAudit(name: string, audit: AuditCounts): string {
  return (
    `${name}: published ${audit.published}, took effect ${audit.tookEffect}, lost ${audit.lost}, ` +
    `duplicated ${audit.duplicated}, out of order ${audit.outOfOrder}, unexpected ${audit.unexpected}`
  );
}
