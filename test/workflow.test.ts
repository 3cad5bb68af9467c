import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopicNames } from '@baton/kafka';
import {
  buildHandoff,
  parseHandoffOutcome,
  type HandoffMessage,
  type HandoffOutcome,
  type Immutable,
  type JsonObject,
} from '@baton/protocol';
import {
  startBatonRig,
  uniqueName,
  waitFor,
  type BatonRig,
  type RecordCollector,
  type ServiceProcess,
} from './helpers/index.js';

const PLANNER = 'planner_agent';
const WORKER = 'worker_agent';
const COMPILER = 'compiler_agent';
const REVIEWER = 'reviewer_agent';
// Ten subtasks of three rounds: 90 agent handoffs and as many routings, spread over five processes.
const FLOW_TIMEOUT_MS = 90_000;

type Outcome = Immutable<HandoffOutcome>;

/** What a user publishes: a requirement for the planner, routed by the table's `workflows` rule. */
function requirement(taskId: string, summary: string, attributes?: JsonObject): Immutable<HandoffMessage> {
  return buildHandoff({
    metadata: { sender_id: 'user', recipient_id: 'workflow_desk', task_id: taskId },
    payload: {
      handoff_type: 'TASK_TRANSFER',
      data: { issue_category: 'WORKFLOW', task_summary: summary, ...(attributes === undefined ? {} : { attributes }) },
    },
  });
}

/** The agents' steps of a task's timeline (the router's ROUTED events left out), as [agent, state, outcome]. */
function steps(events: readonly Outcome[]): [string, string | undefined, string][] {
  return events
    .filter((event) => event.agent_id !== 'router')
    .map((event) => [event.agent_id, event.workflow_state, event.outcome]);
}

/** The steps of a subtask reviewed `rounds` times: work, compile and review per round; the last review completes it. */
function roundSteps(rounds: number): [string, string, string][] {
  const expected: [string, string, string][] = [];
  for (let round = 1; round <= rounds; round += 1) {
    expected.push(
      [WORKER, `ROUND_${round}_WORK`, 'HANDED_OFF'],
      [COMPILER, `ROUND_${round}_COMPILE`, 'HANDED_OFF'],
      [REVIEWER, `ROUND_${round}_REVIEW`, round === rounds ? 'COMPLETED' : 'HANDED_OFF'],
    );
  }
  return expected;
}

describe('the multi-step workflow: planner, worker, compiler and reviewer, each its own process', () => {
  let rig: BatonRig;
  let topics: TopicNames;
  let events: RecordCollector;
  let replies: RecordCollector;
  const killed = new Set<string>();

  /** Every outcome event so far, decoded once each, in the order each task's partition holds them. */
  const decoded = new Map<string, Outcome>();
  const allOutcomes = async (): Promise<Outcome[]> => {
    const all: Outcome[] = [];
    for (const record of events.records) {
      const at = `${record.partition}:${record.offset}`;
      let event = decoded.get(at);
      if (event === undefined) {
        event = parseHandoffOutcome(await rig.outcomeCodec.decode(record.value as Buffer));
        decoded.set(at, event);
      }
      all.push(event);
    }
    return all;
  };
  const outcomesOf = async (taskId: string) => (await allOutcomes()).filter((event) => event.task_id === taskId);

  /** The children of `parent`: the tasks whose events name it as their parent, by task_id. */
  const childrenOf = async (parent: string): Promise<Map<string, Outcome[]>> => {
    const children = new Map<string, Outcome[]>();
    for (const event of await allOutcomes()) {
      if (!event.parent_task_ids?.includes(parent)) continue;
      children.set(event.task_id, [...(children.get(event.task_id) ?? []), event]);
    }
    return children;
  };

  const parentCompleted = (parent: string) =>
    waitFor(
      async () =>
        (await outcomesOf(parent)).find((event) => event.agent_id === PLANNER && event.outcome === 'COMPLETED'),
      { description: `the planner's completion of ${parent}`, timeoutMs: FLOW_TIMEOUT_MS },
    );

  /** Waits until `count` children of `parent` have their COMPLETED event (each collector reads at its own pace). */
  const completedChildren = (parent: string, count: number) =>
    waitFor(
      async () => {
        const children = await childrenOf(parent);
        const done = [...children.values()].filter((timeline) => timeline.some((e) => e.outcome === 'COMPLETED'));
        return done.length >= count && children;
      },
      { description: `${count} completed children of ${parent}`, timeoutMs: FLOW_TIMEOUT_MS },
    );

  beforeAll(async () => {
    rig = await startBatonRig({
      name: 'workflow',
      agents: ['planner-agent', 'worker-agent', 'compiler-agent', 'reviewer-agent'],
    });
    topics = rig.topics;
    events = await rig.collect(topics.events);
    replies = await rig.collect(topics.userReplies);
  });

  afterAll(async () => {
    const exitCodes = await rig?.stop();
    const drained = Object.entries(exitCodes).filter(([name]) => !killed.has(name));
    expect(
      drained.every(([, code]) => code === 0),
      JSON.stringify(exitCodes),
    ).toBe(true);
  });

  it('finishes with exactly 10 children, each with its round count in the timeline, and the parent COMPLETED once', async () => {
    const parent = uniqueName('requirement');
    await rig.publisher.publish(topics.inbound, requirement(parent, 'Write the Baton operator guide'));

    const completion = await parentCompleted(parent);
    const children = await completedChildren(parent, 10);

    // Exactly the ten children the planner split off, each a task of its own naming the parent.
    expect([...children.keys()].sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `${parent}.subtask-${i + 1}`).sort(),
    );
    for (const [child, timeline] of children) {
      const all = await outcomesOf(child);
      expect(all, child).toEqual(timeline);
      for (const event of all) expect(event.parent_task_ids, `${child} ${event.event_id}`).toEqual([parent]);
      // Reviewed exactly three times, rounds 1 to 3 in order; the third review completes it, once.
      expect(steps(all), child).toEqual(roundSteps(3));
      expect(
        all.filter((event) => event.agent_id === REVIEWER).map((event) => event.workflow_state),
        child,
      ).toEqual(['ROUND_1_REVIEW', 'ROUND_2_REVIEW', 'ROUND_3_REVIEW']);
      expect(
        all.filter((event) => event.outcome === 'COMPLETED'),
        child,
      ).toHaveLength(1);
      // Every hop went through the router, by recipient.
      expect(
        all.filter((event) => event.agent_id === 'router' && event.outcome === 'ROUTED'),
        child,
      ).toHaveLength(9);
    }

    // The parent: split once, told of each child once, completed once, after every child completed.
    const parentEvents = await outcomesOf(parent);
    expect(parentEvents.every((event) => event.parent_task_ids === undefined)).toBe(true);
    expect(steps(parentEvents).map(([agent, , outcome]) => [agent, outcome])).toEqual([
      [PLANNER, 'HANDED_OFF'],
      ...Array.from({ length: 9 }, () => [PLANNER, 'PROCESSED']),
      [PLANNER, 'COMPLETED'],
    ]);
    expect(parentEvents.find((event) => event.agent_id === PLANNER)?.target).toBe(WORKER);
    expect(completion.detail).toBe('All 10 subtasks ended: 10 completed; 30 review rounds in all (at most 3 each).');
    const childCompletions = [...children.values()].flat().filter((event) => event.outcome === 'COMPLETED');
    expect(childCompletions).toHaveLength(10);
    for (const event of childCompletions)
      expect(Date.parse(event.time)).toBeLessThanOrEqual(Date.parse(completion.time));

    // The user hears the compiled result once.
    const reply = await waitFor(async () => (await rig.handoffs(replies, parent))[0], {
      description: `the planner's reply for ${parent}`,
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(await rig.handoffs(replies, parent)).toHaveLength(1);
    const text = String((reply.payload.data as { message: string }).message);
    expect(text.split('\n')).toHaveLength(11);
    expect(text).toContain('10. Subtask 10/10, round 3: Draft 3 of "Part 10 of 10: Write the Baton operator guide"');
  });

  it('completes the parent exactly once when the planner is killed mid-run and restarted', async () => {
    const parent = uniqueName('requirement');
    // Two subtasks are approved at round 1, four need all four rounds: the planner counts the first
    // two, is killed while the others are still in review, and a new instance counts the rest.
    const quality = [1, 1, 4, 4, 4, 4];
    await rig.publisher.publish(
      topics.inbound,
      requirement(parent, 'Translate the guide', { subtasks: 6, max_review_rounds: 4, required_quality: quality }),
    );
    await waitFor(
      async () =>
        (await outcomesOf(parent)).some((event) => event.agent_id === PLANNER && event.outcome === 'PROCESSED'),
      { description: `the planner's count of a first child of ${parent}`, timeoutMs: FLOW_TIMEOUT_MS },
    );
    const planner = rig.services['planner-agent'] as ServiceProcess;
    killed.add('planner-agent');
    // No chance to drain or commit.
    await planner.stop('SIGKILL');
    expect(planner.child.signalCode).toBe('SIGKILL');
    const restarted = await rig.addInstance('planner-agent', 'planner-agent-2');

    const completion = await parentCompleted(parent);
    const children = await completedChildren(parent, 6);
    expect([...children.keys()].sort()).toEqual(
      Array.from({ length: 6 }, (_, i) => `${parent}.subtask-${i + 1}`).sort(),
    );
    for (const [child, timeline] of children) {
      const index = Number(child.slice(child.lastIndexOf('-') + 1));
      expect(steps(timeline), child).toEqual(roundSteps(quality[index - 1] as number));
    }
    expect(steps(await outcomesOf(parent)).map(([agent, , outcome]) => [agent, outcome])).toEqual([
      [PLANNER, 'HANDED_OFF'],
      ...Array.from({ length: 5 }, () => [PLANNER, 'PROCESSED']),
      [PLANNER, 'COMPLETED'],
    ]);
    expect(completion.detail).toBe('All 6 subtasks ended: 6 completed; 18 review rounds in all (at most 4 each).');
    // The new instance, reading the workflow back from the state topic, is the one that completed it.
    expect(restarted.logs.some((line) => line.event === 'workflow.completed' && line.task_id === parent)).toBe(true);
    await waitFor(async () => (await rig.handoffs(replies, parent)).length > 0, {
      description: `the planner's reply for ${parent}`,
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(await rig.handoffs(replies, parent)).toHaveLength(1);
  }, 240_000);
});
