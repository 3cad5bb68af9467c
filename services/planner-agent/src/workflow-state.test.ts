import { describe, expect, it } from 'vitest';
import { planWorkflow } from './workflow-request.js';
import {
  compiledResult,
  completionSummary,
  parseWorkflowState,
  readChildReport,
  recordChildEnded,
  startWorkflow,
  type ChildReport,
  type WorkflowState,
} from './workflow-state.js';

const now = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
const plan = planWorkflow(
  { issue_category: 'WORKFLOW', task_summary: 'Ship it', attributes: { subtasks: 3 } },
  { defaultSubtasks: 10, defaultReviewRounds: 3 },
);

function report(child: number, extra: Partial<ChildReport> = {}): ChildReport {
  return {
    child_task_id: `p.subtask-${child}`,
    status: 'COMPLETED',
    rounds: 3,
    verdict: 'APPROVED',
    result: `result ${child}`,
    message_id: `m-${child}`,
    ...extra,
  };
}

/** Feeds reports in order, as the planner commits them: each outcome's state is the next one's input. */
function feed(reports: ChildReport[]): { kinds: string[]; state: WorkflowState } {
  let state = startWorkflow('p', plan, now);
  const kinds: string[] = [];
  for (const next of reports) {
    const outcome = recordChildEnded(state, next, now);
    kinds.push(outcome.kind);
    if (outcome.kind === 'progress' || outcome.kind === 'completed') state = outcome.state;
  }
  return { kinds, state };
}

describe('a workflow’s completion count', () => {
  it('starts with every child running', () => {
    const state = startWorkflow('p', plan, now);
    expect(state.children.map((child) => child.task_id)).toEqual(['p.subtask-1', 'p.subtask-2', 'p.subtask-3']);
    expect(state.ended).toEqual({});
    expect(state.completed_at).toBeUndefined();
  });

  it('completes the parent when the last child ends, whatever the order', () => {
    const { kinds, state } = feed([report(2), report(3), report(1)]);
    expect(kinds).toEqual(['progress', 'progress', 'completed']);
    expect(state.completed_at).toBe(now.toISOString());
    expect(completionSummary(state)).toBe(
      'All 3 subtasks ended: 3 completed; 9 review rounds in all (at most 3 each).',
    );
    expect(compiledResult(state)).toBe('Done: Ship it\n1. result 1\n2. result 2\n3. result 3');
  });

  it('counts a child once however often it is reported, and completes the parent once', () => {
    const { kinds } = feed([report(1), report(1, { message_id: 'again' }), report(2), report(3), report(3)]);
    expect(kinds).toEqual(['progress', 'already-ended', 'progress', 'completed', 'already-ended']);
    expect(kinds.filter((kind) => kind === 'completed')).toHaveLength(1);
  });

  it('counts a failed child as ended, and ignores children of other parents', () => {
    const { kinds, state } = feed([
      report(1),
      report(7),
      { ...report(2), status: 'FAILED' },
      { ...report(3), child_task_id: 'q.subtask-3' },
      report(3),
    ]);
    expect(kinds).toEqual(['progress', 'unknown-child', 'progress', 'unknown-child', 'completed']);
    expect(completionSummary(state)).toContain('2 completed, 1 failed');
    expect(compiledResult(state)).toContain('2. (failed) Part 2 of 3: Ship it');
  });

  it('survives its record: parse(serialise(state)) is the state', () => {
    const { state } = feed([report(1)]);
    expect(parseWorkflowState(Buffer.from(JSON.stringify(state)))).toEqual(state);
    expect(() => parseWorkflowState(Buffer.from('{"x":1}'))).toThrow();
  });
});

describe('readChildReport', () => {
  it('reads a child’s end from the reviewer’s notification', () => {
    expect(
      readChildReport(
        {
          event_type: 'SUBTASK_COMPLETED',
          message: 'done',
          details: { child_task_id: 'p.subtask-1', rounds: 3, verdict: 'APPROVED', result: 'r' },
        },
        'm-1',
      ),
    ).toEqual({
      child_task_id: 'p.subtask-1',
      status: 'COMPLETED',
      rounds: 3,
      verdict: 'APPROVED',
      result: 'r',
      message_id: 'm-1',
    });
    expect(
      readChildReport({ event_type: 'SUBTASK_FAILED', message: 'x', details: { child_task_id: 'c' } }, 'm'),
    ).toEqual({ child_task_id: 'c', status: 'FAILED', message_id: 'm' });
  });

  it('passes over other notifications and refuses a report without its child', () => {
    expect(readChildReport({ event_type: 'AGENT_REPLY', message: 'hi' }, 'm')).toBeUndefined();
    expect(() => readChildReport({ event_type: 'SUBTASK_COMPLETED', message: 'x' }, 'm')).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/payload/data/details/child_task_id' }),
    );
  });
});
