import { describe, expect, it } from 'vitest';
import { buildHandoff, parseHandoff } from '@baton/protocol';
import { BoundedLabelValues, HandoffLabeller, handoffTypeLabel, issueCategoryOf } from './handoff-labels.js';

const metadata = { sender_id: 'triage_agent', recipient_id: 'sales_agent', task_id: 'task-1' };

describe('HandoffLabeller', () => {
  it('reads handoff_type and payload.data.issue_category', () => {
    const transfer = buildHandoff({
      metadata,
      payload: { handoff_type: 'TASK_TRANSFER', data: { issue_category: 'SALES', task_summary: 'A mesh kit.' } },
    });
    expect(issueCategoryOf(transfer)).toBe('SALES');
    expect(new HandoffLabeller().labelsOf(transfer)).toEqual({
      handoff_type: 'TASK_TRANSFER',
      issue_category: 'SALES',
    });
  });

  it('says none when the data states no issue_category', () => {
    const notification = buildHandoff({
      metadata,
      payload: { handoff_type: 'NOTIFICATION', data: { event_type: 'PING', message: 'hello' } },
    });
    expect(issueCategoryOf(notification)).toBeUndefined();
    expect(new HandoffLabeller().labelsOf(notification)).toEqual({
      handoff_type: 'NOTIFICATION',
      issue_category: 'none',
    });
  });

  it('gives every handoff of a type and category the same frozen labels, with the categories bounded', () => {
    const labeller = new HandoffLabeller(new BoundedLabelValues(1, 8));
    const transfer = (category: string) =>
      buildHandoff({
        metadata,
        payload: { handoff_type: 'TASK_TRANSFER', data: { issue_category: category, task_summary: 'A mesh kit.' } },
      });
    const sales = labeller.labelsOf(transfer('SALES'));
    expect(labeller.labelsOf(transfer('SALES'))).toBe(sales);
    expect(Object.isFrozen(sales)).toBe(true);
    expect(labeller.labelsOf(transfer('REFUND'))).toEqual({ handoff_type: 'TASK_TRANSFER', issue_category: 'other' });
  });

  it('reads no issue_category where the data type declares none, as a newer minor may send', () => {
    const answer = JSON.parse(
      JSON.stringify(
        buildHandoff({ metadata, payload: { handoff_type: 'PROVIDE_INFORMATION', data: { provided_info: {} } } }),
      ),
    ) as Record<string, any>;
    answer.metadata.protocol_version = '1.99.0';
    answer.payload.data.issue_category = 42;
    expect(issueCategoryOf(parseHandoff(answer))).toBeUndefined();
  });
});

describe('BoundedLabelValues', () => {
  it('keeps the first distinct values, then reads other for new and overlong ones', () => {
    const values = new BoundedLabelValues(2, 8);
    expect(values.admit('A')).toBe('A');
    expect(values.admit('B')).toBe('B');
    expect(values.admit('C')).toBe('other');
    expect(values.admit('A')).toBe('A');
    expect(new BoundedLabelValues(5, 8).admit('NINE_CHAR')).toBe('other');
  });
});

describe('handoffTypeLabel', () => {
  it('takes the decoded type, else a known ce_type header, else unknown', () => {
    expect(handoffTypeLabel({ handoff_type: 'ESCALATION' }, 'TASK_TRANSFER')).toBe('ESCALATION');
    expect(handoffTypeLabel({}, 'ESCALATION')).toBe('ESCALATION');
    expect(handoffTypeLabel({}, 'TELEPORT')).toBe('unknown');
    expect(handoffTypeLabel({}, undefined)).toBe('unknown');
  });
});
