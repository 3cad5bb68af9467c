import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHandoff } from '@baton/protocol';
import type { TaskView } from '@baton/task-tracking';
import type { Negotiate } from './fixtures/probe-agent/main.js';
import { steps, taskView } from './helpers/task-view.js';
import { startBatonRig, uniqueName, waitFor, type BatonRig, type ServiceProcess } from './helpers/index.js';

const TRACKER = 'services/tracker/src/main.ts';
const PROBE = 'test/fixtures/probe-agent/main.ts';
const ACCEPT_TIMEOUT_MS = 3_000;
const FLOW_TIMEOUT_MS = 60_000;
/** Agents the test runs: a sender, a receiver that takes NetworkExpert work, one for Sales, and one at capacity. */
const AGENTS = ['neg_sender', 'neg_expert', 'neg_full', 'neg_sales'];

function task(tracker: ServiceProcess, taskId: string): Promise<TaskView | undefined> {
  return taskView(tracker.address, taskId);
}

describe('negotiated handoffs between agent processes, run by the tracker', () => {
  let rig: BatonRig;
  let steady: ServiceProcess;
  let restarted: ServiceProcess | undefined;
  const tasks: string[] = [];
  const killed = new Set<string>();

  async function negotiate(negotiate: Negotiate): Promise<string> {
    const taskId = uniqueName('negotiated');
    tasks.push(taskId);
    await rig.publisher.publish(
      rig.topics.inbound,
      buildHandoff({
        metadata: { sender_id: 'user', recipient_id: 'neg_sender', task_id: taskId },
        payload: {
          handoff_type: 'STATUS_UPDATE',
          data: { status: 'IN_PROGRESS', details: JSON.stringify({ seq: 0, negotiate }) },
        },
      }),
    );
    return taskId;
  }

  async function settled(taskId: string, status: TaskView['status']): Promise<TaskView> {
    let last: TaskView | undefined;
    await waitFor(
      async () => {
        last = await task(steady, taskId);
        return last?.status === status;
      },
      { description: `${taskId} ${status} (last: ${JSON.stringify(steps(last))})`, timeoutMs: FLOW_TIMEOUT_MS },
    );
    return last as TaskView;
  }

  let tableDir: string | undefined;

  beforeAll(async () => {
    tableDir = mkdtempSync(join(tmpdir(), 'baton-negotiation-'));
    const table = join(tableDir, 'routing-table.yaml');
    writeFileSync(table, `version: 1\nagents: [${AGENTS.join(', ')}]\nrules: []\ndefault: neg_sender\n`);
    rig = await startBatonRig({ name: 'negotiation', agents: [], routerEnv: { ROUTING_TABLE: table } });
    // Receivers first, so the rejecting agent's registry view knows them when it suggests alternatives.
    await rig.addProcess('neg_expert', PROBE, { PROBE_AGENT_ID: 'neg_expert', PROBE_AGENT_SKILLS: 'NetworkExpert' });
    await rig.addProcess('neg_full', PROBE, {
      PROBE_AGENT_ID: 'neg_full',
      PROBE_AGENT_SKILLS: 'NetworkExpert',
      BATON_AGENT_CAPACITY: '0',
    });
    await rig.addProcess('neg_sales', PROBE, { PROBE_AGENT_ID: 'neg_sales', PROBE_AGENT_SKILLS: 'Sales' });
    // Contexts over 64 KiB go by reference.
    await rig.addProcess('neg_sender', PROBE, {
      PROBE_AGENT_ID: 'neg_sender',
      BATON_CONTEXT_INLINE_MAX_BYTES: '65536',
    });
    const trackerEnv = { BATON_HANDOFF_ACCEPT_TIMEOUT_MS: String(ACCEPT_TIMEOUT_MS) };
    steady = await rig.addProcess('tracker-a', TRACKER, trackerEnv);
    await rig.addProcess('tracker-b', TRACKER, trackerEnv);
  }, 180_000);

  afterAll(async () => {
    if (tableDir !== undefined) rmSync(tableDir, { recursive: true, force: true });
    const exitCodes = await rig?.stop();
    const drained = Object.entries(exitCodes ?? {}).filter(([name]) => !killed.has(name));
    expect(
      drained.every(([, code]) => code === 0),
      JSON.stringify(exitCodes),
    ).toBe(true);
  });

  it('runs request, accept, context, complete; the tracker lists each step in order, by value and by reference', async () => {
    const byValue = await negotiate({ to: 'neg_expert', desired_agent_type: 'NetworkExpert', then: { seq: 1 } });
    // 1.5 MB of context: more than one Kafka record holds (1 MiB by default).
    const byReference = await negotiate({
      to: 'neg_expert',
      desired_agent_type: 'networkexpert',
      pad_bytes: 1_500_000,
      then: { seq: 2 },
    });
    // One tracker dies mid-run, without closing; a new one is started later and must agree.
    killed.add('tracker-b');
    await rig.services['tracker-b']?.stop('SIGKILL');

    const view = await settled(byValue, 'FINISH');
    expect(steps(view)).toEqual([
      'ROUTED @router',
      'staged by-value @neg_sender',
      'HandoffRequest neg_sender>neg_expert',
      'HANDOFF_REQUESTED @neg_sender',
      'HandoffAccept neg_expert>neg_sender',
      'TaskContextTransfer neg_sender>neg_expert',
      'HandoffComplete neg_expert>neg_sender',
      'COMPLETED @neg_expert',
    ]);
    expect(view.status_history.map((change) => change.status)).toEqual([
      'CREATE',
      'EXECUTING',
      'WAITING',
      'EXECUTING',
      'FINISH',
    ]);
    expect(view.negotiations).toMatchObject([
      {
        sender_id: 'neg_sender',
        context_mode: 'by-value',
        outcome: 'COMPLETED',
        sender_state: 'TaskFinished',
        attempts: [{ receiver: 'neg_expert', via: 'target', receiver_state: 'Active' }],
      },
    ]);
    expect(view.refused).toEqual([]);

    const large = await settled(byReference, 'FINISH');
    expect(steps(large).slice(1, 3)).toEqual([
      'staged by-reference @neg_sender',
      'HandoffRequest neg_sender>neg_expert',
    ]);
    expect(
      large.timeline.find((entry) => entry.kind === 'lifecycle' && entry.message_type === 'TaskContextTransfer'),
    ).toMatchObject({ detail: expect.stringMatching(/^context by reference \(\d{7} bytes\)$/) });
    expect(large.negotiations[0]).toMatchObject({ outcome: 'COMPLETED', context_mode: 'by-reference' });
  }, 120_000);

  it('a receiver at capacity, or lacking the skill, rejects with suggestions; the suggested agent accepts', async () => {
    const full = await negotiate({ to: 'neg_full', desired_agent_type: 'NetworkExpert', then: { seq: 3 } });
    const mismatch = await negotiate({ to: 'neg_sales', desired_agent_type: 'NetworkExpert', then: { seq: 4 } });

    const fullView = await settled(full, 'FINISH');
    expect(fullView.negotiations[0]?.attempts).toMatchObject([
      {
        receiver: 'neg_full',
        via: 'target',
        rejection: { reason: 'overloaded: 0 handoffs queued, capacity 0', suggestions: ['neg_expert'] },
      },
      { receiver: 'neg_expert', via: 'suggestion', receiver_state: 'Active' },
    ]);
    const mismatchView = await settled(mismatch, 'FINISH');
    expect(mismatchView.negotiations[0]?.attempts).toMatchObject([
      {
        receiver: 'neg_sales',
        rejection: {
          reason: 'capability mismatch: neg_sales is not a NetworkExpert',
          suggestions: ['neg_expert', 'neg_full'],
        },
      },
      { receiver: 'neg_expert', via: 'suggestion', receiver_state: 'Active' },
    ]);
    expect(steps(mismatchView)).toContain('HandoffReject neg_sales>neg_sender');
  }, 120_000);

  it('a silent receiver times out and the task is escalated per its failure_handling_strategy', async () => {
    const taskId = await negotiate({
      to: 'neg_silent',
      desired_agent_type: 'NetworkExpert',
      instructions: { failure_handling_strategy: { escalate_to: 'neg_expert' } },
      then: { seq: 5 },
    });
    const view = await settled(taskId, 'FINISH');
    expect(steps(view).slice(2)).toEqual([
      'HandoffRequest neg_sender>neg_silent',
      'HANDOFF_REQUESTED @neg_sender',
      'ErrorNotification baton_tracker>neg_sender',
      'HandoffRequest neg_sender>neg_expert',
      'HandoffAccept neg_expert>neg_sender',
      'TaskContextTransfer neg_sender>neg_expert',
      'HandoffComplete neg_expert>neg_sender',
      'COMPLETED @neg_expert',
    ]);
    const [timedOut, escalated] = view.negotiations[0]?.attempts ?? [];
    expect(timedOut).toMatchObject({
      receiver: 'neg_silent',
      failure: { code: 'HANDOFF_TIMEOUT', message: `no answer from neg_silent within ${ACCEPT_TIMEOUT_MS} ms` },
    });
    expect(escalated).toMatchObject({ receiver: 'neg_expert', via: 'escalate_to', receiver_state: 'Active' });
    // The escalation was asked only once the accept timeout had passed.
    expect(Date.parse(escalated?.requested_at ?? '') - Date.parse(timedOut?.requested_at ?? '')).toBeGreaterThanOrEqual(
      ACCEPT_TIMEOUT_MS,
    );
  }, 120_000);

  it('a task with every option used up ends FAILED with an ErrorNotification; an expired one ends EXPIRED', async () => {
    const exhausted = await negotiate({
      to: 'neg_silent',
      desired_agent_type: 'NetworkExpert',
      instructions: { failure_handling_strategy: { retry_count: 1, escalate_to: 'neg_silent_too' } },
      then: { seq: 6 },
    });
    const expiring = await negotiate({
      to: 'neg_silent',
      desired_agent_type: 'NetworkExpert',
      expiration_time: new Date(Date.now() + ACCEPT_TIMEOUT_MS / 2).toISOString(),
      then: { seq: 7 },
    });

    const failed = await settled(exhausted, 'FAILED');
    expect(failed.owner).toBe('neg_sender');
    expect(failed.negotiations[0]).toMatchObject({
      outcome: 'FAILED',
      sender_state: 'TaskFailed',
      attempts: [
        { receiver: 'neg_silent', via: 'target', failure: { code: 'HANDOFF_TIMEOUT' } },
        { receiver: 'neg_silent', via: 'retry', failure: { code: 'HANDOFF_TIMEOUT' } },
        { receiver: 'neg_silent_too', via: 'escalate_to', failure: { code: 'HANDOFF_TIMEOUT' } },
      ],
    });
    expect(failed.timeline.at(-1)).toMatchObject({
      kind: 'lifecycle',
      message_type: 'ErrorNotification',
      sender_id: 'baton_tracker',
      receiver_id: 'neg_sender',
      detail: expect.stringMatching(/^HANDOFF_FAILED \(CRITICAL\): every option of the failure_handling_strategy/),
    });

    const expired = await settled(expiring, 'EXPIRED');
    expect(expired).toMatchObject({ owner: null });
    expect(expired.negotiations[0]).toMatchObject({ outcome: 'EXPIRED', attempts: [{ receiver: 'neg_silent' }] });
    expect(expired.negotiations[0]?.attempts).toHaveLength(1);
    expect(steps(expired).at(-1)).toBe('ErrorNotification baton_tracker>neg_sender');
  }, 120_000);

  it('a tracker killed mid-run and started again holds the same state of every task as one that never stopped', async () => {
    restarted = await rig.addProcess('tracker-b-2', TRACKER, {
      BATON_HANDOFF_ACCEPT_TIMEOUT_MS: String(ACCEPT_TIMEOUT_MS),
    });
    await waitFor(async () => (await fetch(`${restarted?.address}/readyz`)).status === 200, {
      description: 'the restarted tracker caught up',
    });
    for (const taskId of tasks) {
      expect(await task(restarted, taskId), taskId).toEqual(await task(steady, taskId));
    }
    // Seven negotiations: five completed, one failed, one expired; and what the tracker did for them.
    const metrics = await (await fetch(`${steady.address}/metrics`)).text();
    for (const [outcome, count] of [
      ['OPEN', 0],
      ['COMPLETED', 5],
      ['FAILED', 1],
      ['EXPIRED', 1],
    ] as const) {
      expect(metrics).toContain(`baton_negotiations{outcome="${outcome}",service="tracker"} ${count}`);
    }
    expect(metrics).toMatch(/baton_tracker_duties_total\{duty="time-out",service="tracker"\} [1-9]/);
  }, 60_000);
});
