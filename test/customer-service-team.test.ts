import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLedgerEntry, type LedgerEntry } from '@baton/agent-sdk';
import type { TopicNames } from '@baton/kafka';
import {
  buildHandoff,
  type HandoffMessage,
  type HandoffOutcome,
  type Immutable,
  type JsonObject,
  type UserInteraction,
} from '@baton/protocol';
import type { HandoffPublisher } from '@baton/runtime';
import {
  errorAnswer,
  routeNotFound,
  startBatonRig,
  uniqueName,
  waitFor,
  type BatonRig,
  type RecordCollector,
  type ServiceProcess,
  expectCleanExits,
} from './helpers/index.js';

const TRIAGE = 'triage_agent';
const SALES = 'sales_agent';
const ISSUES = 'issues_and_repairs_agent';
// A conversation crosses up to five processes and as many transactions.
const FLOW_TIMEOUT_MS = 30_000;
const CUSTOMER = { user_id: 'cust-7a568cf5', name: 'Wile E. Coyote' };

function said(sender: string, content: string): UserInteraction {
  return { type: 'CHAT_MESSAGE', sender, content, timestamp: '2026-11-21T09:00:00.000Z' };
}

/** What the user's chat front end publishes: the customer's words, for triage to classify. */
function userRequest(
  taskId: string,
  taskSummary: string,
  options: { history?: UserInteraction[]; attributes?: JsonObject } = {},
): Immutable<HandoffMessage> {
  return buildHandoff({
    metadata: { sender_id: 'user', recipient_id: TRIAGE, task_id: taskId },
    context: {
      previous_actions: [
        { action_type: 'USER_LOGIN', details: 'Chat session started.', timestamp: '2026-11-21T08:59:00.000Z' },
      ],
      user_interaction_history: options.history ?? [],
    },
    payload: {
      handoff_type: 'TASK_TRANSFER',
      data: {
        issue_category: 'UNCLASSIFIED',
        task_summary: taskSummary,
        customer_info: CUSTOMER,
        ...(options.attributes === undefined ? {} : { attributes: options.attributes }),
      },
    },
  });
}

interface PendingTask {
  task_id: string;
  message_id: string;
  handoff_type: string;
  sender: string;
  summary: string;
  received_at: string;
}

async function pendingAt(service: ServiceProcess): Promise<PendingTask[]> {
  const response = await fetch(`${service.address}/v1/pending`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { pending: PendingTask[] }).pending;
}

function answer(service: ServiceProcess, taskId: string, body: unknown): Promise<Response> {
  return fetch(`${service.address}/v1/pending/${encodeURIComponent(taskId)}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('the customer service team, each agent its own process', () => {
  let rig: BatonRig;
  let topics: TopicNames;
  let human: ServiceProcess;
  let publisher: HandoffPublisher;
  let issuesInbox: RecordCollector;
  let events: RecordCollector;
  let ledger: RecordCollector;
  let replies: RecordCollector;

  const handoffs = (collector: RecordCollector, taskId: string) => rig.handoffs(collector, taskId);

  const outcomes = (taskId: string) => rig.outcomes(events, taskId);

  const outcomeWhere = (taskId: string, description: string, match: (event: HandoffOutcome) => boolean) =>
    waitFor(async () => (await outcomes(taskId)).find(match), { description, timeoutMs: FLOW_TIMEOUT_MS });

  const outcomeOf = (message: Immutable<HandoffMessage>, agentId: string) =>
    outcomeWhere(
      message.metadata.task_id,
      `${agentId}'s outcome of ${message.metadata.message_id}`,
      (event) => event.message_id === message.metadata.message_id && event.agent_id === agentId,
    );

  const effects = (taskId: string, effect: string): LedgerEntry[] =>
    ledger.records
      .filter((record) => record.key === taskId)
      .map((record) => parseLedgerEntry(record.value as Buffer))
      .filter((entry) => entry.effect === effect);

  // Each collector reads at its own pace, so a ledger entry may trail the event of its transaction.
  const effectIn = (taskId: string, effect: string) =>
    waitFor(() => effects(taskId, effect)[0], { description: `${effect} of ${taskId}`, timeoutMs: FLOW_TIMEOUT_MS });

  const repliesFrom = async (agentId: string, taskId: string): Promise<string[]> =>
    (await handoffs(replies, taskId))
      .filter((reply) => reply.metadata.sender_id === agentId)
      .map((reply) => String((reply.payload.data as { message: string }).message));

  const replyFrom = (agentId: string, taskId: string, match: (text: string) => boolean) =>
    waitFor(async () => (await repliesFrom(agentId, taskId)).find(match), {
      description: `${agentId}'s reply to the user`,
      timeoutMs: FLOW_TIMEOUT_MS,
    });

  beforeAll(async () => {
    rig = await startBatonRig({
      name: 'team',
      agents: ['triage-agent', 'sales-agent', 'issues-and-repairs-agent', 'human-agent'],
    });
    ({ topics, publisher } = rig);
    human = rig.services['human-agent'] as ServiceProcess;
    issuesInbox = await rig.collect(topics.agentInbox(ISSUES));
    events = await rig.collect(topics.events);
    ledger = await rig.collect(topics.ledger);
    replies = await rig.collect(topics.userReplies);
  });

  afterAll(async () => {
    const exitCodes = await rig?.stop();
    expectCleanExits(exitCodes);
  });

  it('refunds the broken shoes once: triage, then issues and repairs, previous actions intact', async () => {
    const taskId = uniqueName('task');
    const request = userRequest(taskId, 'A pair of shoes I bought, they arrived broken', {
      history: [
        said('User', 'I want a refund'),
        said('TriageAgent', "I can help with that! Could I ask what item you're seeking a refund for?"),
      ],
    });
    // A front end that retries publishes the same message twice; it must count once.
    await publisher.publish(topics.inbound, request);
    await publisher.publish(topics.inbound, request);

    const transfer = await waitFor(async () => (await handoffs(issuesInbox, taskId))[0], {
      description: 'the transfer in the issues and repairs inbox',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(transfer.metadata).toMatchObject({ sender_id: TRIAGE, recipient_id: ISSUES, task_id: taskId });
    expect(transfer.context.previous_actions).toEqual([
      ...request.context.previous_actions,
      {
        action_type: 'TRIAGE',
        details: 'Classified the request as REFUND (the customer said "refund").',
        timestamp: expect.any(String),
        agent_id: TRIAGE,
      },
    ]);
    expect(transfer.context.user_interaction_history).toEqual(request.context.user_interaction_history);
    expect(transfer.context.workflow_state).toBe('TRIAGED');
    expect(transfer.payload).toEqual({
      handoff_type: 'TASK_TRANSFER',
      data: {
        issue_category: 'REFUND',
        task_summary: 'A pair of shoes I bought, they arrived broken',
        transfer_reason: 'The customer wants a refund.',
        desired_agent_type: 'IssuesAndRepairsAgent',
        customer_info: CUSTOMER,
      },
    });
    expect(await outcomeOf(request, TRIAGE)).toMatchObject({ outcome: 'HANDED_OFF', target: ISSUES });

    const completed = await outcomeOf(transfer, ISSUES);
    expect(completed).toMatchObject({ outcome: 'COMPLETED', issue_category: 'REFUND' });
    const refund = await effectIn(taskId, 'execute_refund');
    expect(refund).toMatchObject({
      message_id: transfer.metadata.message_id,
      agent_id: ISSUES,
      args: { item_id: expect.stringMatching(/^item_\d{9}$/), reason: 'A pair of shoes I bought, they arrived broken' },
    });
    const itemId = String(refund.args.item_id);
    expect(completed.detail).toBe(`Refund executed for ${itemId}.`);
    expect(await replyFrom(ISSUES, taskId, (text) => text.includes(itemId))).toBe(
      `Your refund for ${itemId} has been processed.`,
    );

    // The customer's next message takes the task's partitions after the duplicate: once triage has
    // answered it, the duplicate has been dropped, and a second refund would already be here.
    const thanks = userRequest(taskId, 'Thanks!');
    await publisher.publish(topics.inbound, thanks);
    expect(await outcomeOf(thanks, TRIAGE)).toMatchObject({ outcome: 'COMPLETED' });
    expect(effects(taskId, 'execute_refund')).toHaveLength(1);
    expect(await handoffs(issuesInbox, taskId)).toHaveLength(1);
  });

  it('routes a purchase to sales, which executes the order at the catalogue price', async () => {
    const taskId = uniqueName('task');
    const request = userRequest(taskId, 'I want to buy the RouterX-Pro mesh kit', {
      attributes: { budget: { value: 199, currency: 'USD' } },
    });
    await publisher.publish(topics.inbound, request);

    const routed = await outcomeWhere(
      taskId,
      'the router dispatching triage’s transfer to sales',
      (event) => event.agent_id === 'router' && event.target === SALES,
    );
    expect(routed).toMatchObject({ outcome: 'ROUTED', handoff_type: 'TASK_TRANSFER', issue_category: 'SALES' });
    expect(await outcomeOf(request, TRIAGE)).toMatchObject({ outcome: 'HANDED_OFF', target: SALES });

    const order = await effectIn(taskId, 'execute_order');
    expect(order).toMatchObject({
      message_id: routed.message_id,
      agent_id: SALES,
      args: { product: 'RouterX-Pro mesh kit', price: 299 },
    });
    expect(await outcomeWhere(taskId, 'sales completing the order', (event) => event.agent_id === SALES)).toMatchObject(
      { outcome: 'COMPLETED', message_id: routed.message_id },
    );
    expect(await replyFrom(SALES, taskId, () => true)).toBe(
      'Order placed: RouterX-Pro mesh kit for $299. Thank you for shopping with ACME!',
    );
    expect(effects(taskId, 'execute_order')).toHaveLength(1);
  });

  it('asks the human agent to approve a refund above the limit, and refunds once it is approved', async () => {
    const taskId = uniqueName('task');
    const request = userRequest(taskId, 'My blender arrived broken, I want a refund', {
      attributes: { product: 'blender', amount: { value: 249.99, currency: 'USD' } },
    });
    await publisher.publish(topics.inbound, request);

    const pending = await waitFor(async () => (await pendingAt(human)).find((task) => task.task_id === taskId), {
      description: 'the approval request pending at the human agent',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(pending).toEqual({
      task_id: taskId,
      message_id: expect.any(String),
      handoff_type: 'APPROVAL_REQUEST',
      sender: ISSUES,
      summary: expect.stringMatching(
        /^EXECUTE_REFUND of item_\d{9} for 249.99 USD: My blender arrived broken, I want a refund$/,
      ),
      received_at: expect.any(String),
    });
    const itemId = /item_\d{9}/.exec(pending.summary)?.[0] ?? '';
    expect(await replyFrom(ISSUES, taskId, (text) => text.includes('approval'))).toBe(
      `Your refund for ${itemId} needs a supervisor's approval; we will let you know here.`,
    );
    expect(effects(taskId, 'execute_refund')).toEqual([]);

    // A second instance reads the pending topic before it starts: the list is durable and shared.
    const second = await rig.addInstance('human-agent', 'human-agent-2');
    expect((await pendingAt(second)).filter((task) => task.task_id === taskId)).toEqual([pending]);

    const bad = await answer(second, taskId, { decision: 'YES' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: { code: 'ANSWER_INVALID', message: 'decision must be "APPROVED" or "DENIED"' },
    });

    const approved = await answer(second, taskId, { decision: 'APPROVED', note: 'Goodwill refund.' });
    expect(approved.status).toBe(200);
    const sent = (await approved.json()) as { task_id: string; decision: string; message_id: string };
    expect(sent).toMatchObject({ task_id: taskId, decision: 'APPROVED' });
    expect(await pendingAt(second)).toEqual([]);
    const again = await answer(second, taskId, { decision: 'APPROVED' });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      error: { code: 'PENDING_TASK_NOT_FOUND', message: `no pending task ${JSON.stringify(taskId)}`, path: '/taskId' },
    });
    expect(await errorAnswer(`${second.address}/v1/nowhere`)).toEqual(routeNotFound('GET', '/v1/nowhere'));
    await waitFor(async () => (await pendingAt(human)).length === 0, {
      description: 'the first instance reading the answered task’s tombstone',
      timeoutMs: FLOW_TIMEOUT_MS,
    });

    const refund = await effectIn(taskId, 'execute_refund');
    expect(refund).toMatchObject({
      message_id: sent.message_id,
      agent_id: ISSUES,
      args: { item_id: itemId, reason: 'My blender arrived broken, I want a refund' },
    });
    expect(
      await outcomeWhere(taskId, 'issues and repairs completing the approved refund', (event) => {
        return event.agent_id === ISSUES && event.message_id === sent.message_id;
      }),
    ).toMatchObject({ outcome: 'COMPLETED', handoff_type: 'PROVIDE_INFORMATION' });
    expect(await replyFrom(ISSUES, taskId, (text) => text.includes('approved'))).toBe(
      `A supervisor approved your refund for ${itemId}; it has been processed.`,
    );
    expect(effects(taskId, 'execute_refund')).toHaveLength(1);
  });
});
