// Pure counting, no broker: it sits beside the helper it tests (the integration project's files).
import { describe, expect, it } from 'vitest';
import { auditExactlyOnce, formatAudit, type ObservedEffect, type PublishedHandoff } from './exactly-once-audit.js';

/** Tasks a and b, three handoffs each, published interleaved: a0 b0 a1 b1 a2 b2. */
const published: PublishedHandoff[] = ['a0', 'b0', 'a1', 'b1', 'a2', 'b2'].map((id) => ({
  messageId: id,
  taskId: id.slice(0, 1),
}));

/** Effects written in the order given: task a in partition 0, task b in partition 1. */
function log(ids: string[], options: { partitionOf?: (id: string) => number; keyOf?: (id: string) => string } = {}) {
  const next = new Map<number, number>();
  return ids.map((id): ObservedEffect => {
    const partition = options.partitionOf?.(id) ?? (id.startsWith('a') ? 0 : 1);
    const offset = next.get(partition) ?? 0;
    next.set(partition, offset + 1);
    return { messageId: id, taskId: options.keyOf?.(id) ?? id.slice(0, 1), partition, offset: String(offset) };
  });
}

describe('auditExactlyOnce', () => {
  it('passes every handoff taking effect once, in publish order per task, whatever the order across tasks', () => {
    const audit = auditExactlyOnce(published, log(['b0', 'b1', 'a0', 'b2', 'a1', 'a2']));

    expect(audit).toMatchObject({
      published: 6,
      tookEffect: 6,
      lost: 0,
      duplicated: 0,
      outOfOrder: 0,
      unexpected: 0,
      ok: true,
    });
  });

  it('counts a handoff without effect as lost, and a gap alone as no disorder', () => {
    const audit = auditExactlyOnce(published, log(['a0', 'a2', 'b0', 'b1', 'b2']));

    expect(audit).toMatchObject({ tookEffect: 5, lost: 1, outOfOrder: 0, ok: false });
    expect(audit.examples.lost).toEqual(['a1']);
  });

  it('counts every effect beyond the first as duplicated', () => {
    const audit = auditExactlyOnce(published, log(['a0', 'a1', 'a1', 'a2', 'a1', 'b0', 'b1', 'b2', 'b2']));

    expect(audit).toMatchObject({ tookEffect: 6, duplicated: 3, lost: 0, outOfOrder: 0, ok: false });
    expect(audit.examples.duplicated).toEqual(['a1', 'b2']);
  });

  it('counts a first effect after a later handoff of its task as out of order, once per late handoff', () => {
    const audit = auditExactlyOnce(published, log(['a2', 'a0', 'a1', 'b0', 'b1', 'b2']));

    expect(audit).toMatchObject({ tookEffect: 6, outOfOrder: 2, duplicated: 0, ok: false });
    expect(audit.examples.outOfOrder).toEqual(['a0', 'a1']);
  });

  it('reads the log by partition and offset, not by arrival, and one record seen twice is one record', () => {
    const effects = log(['a0', 'a1', 'a2', 'b0', 'b1', 'b2']);
    const redelivered = [...effects.slice(3), ...effects, effects[1] as ObservedEffect].reverse();

    expect(auditExactlyOnce(published, redelivered)).toMatchObject({ duplicated: 0, outOfOrder: 0, ok: true });
  });

  it('compares offsets as numbers, not as text', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ messageId: `t${i}`, taskId: 't' }));
    const effects = many.map((handoff, i) => ({ ...handoff, partition: 0, offset: String(i) }));

    expect(auditExactlyOnce(many, effects.reverse())).toMatchObject({ outOfOrder: 0, ok: true });
  });

  it('counts a task split over two partitions as out of order: Kafka orders a partition only', () => {
    const audit = auditExactlyOnce(
      published,
      log(['a0', 'a1', 'a2', 'b0', 'b1', 'b2'], {
        partitionOf: (id) => (id === 'a2' ? 1 : id.startsWith('a') ? 0 : 1),
      }),
    );

    expect(audit).toMatchObject({ outOfOrder: 1, ok: false });
    expect(audit.examples.outOfOrder).toEqual(['a2']);
  });

  it('counts effects of unknown ids, or keyed by another task, as unexpected and not as effects', () => {
    const audit = auditExactlyOnce(
      published,
      log(['a0', 'a1', 'a2', 'zz', 'b0', 'b1', 'b2'], { keyOf: (id) => (id === 'b1' ? 'a' : id.slice(0, 1)) }),
    );

    expect(audit).toMatchObject({ unexpected: 2, tookEffect: 5, lost: 1, ok: false });
    expect(audit.examples.unexpected.sort()).toEqual(['b1', 'zz']);
  });

  it('formats the counts on one line', () => {
    const audit = auditExactlyOnce(published, log(['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'b2']));

    expect(formatAudit('COMPLETED', audit)).toBe(
      'COMPLETED: published 6, took effect 6, lost 0, duplicated 1, out of order 0, unexpected 0',
    );
  });
});
