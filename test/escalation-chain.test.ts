import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLedgerEntry, type LedgerEntry } from '@baton/agent-sdk';
import type { TopicNames } from '@baton/kafka';
import { buildHandoff, type HandoffMessage, type Immutable } from '@baton/protocol';
import type { HandoffPublisher } from '@baton/runtime';
import { startBatonRig, uniqueName, waitFor, type BatonRig, type RecordCollector } from './helpers/index.js';

const require = createRequire(import.meta.url);

const CUSTOMER_SERVICE = 'customer_service_agent';
const TECHNICAL_SUPPORT = 'technical_support_agent_pool';
const LEVEL3 = 'level3_network_expert_agent_pool';
// A chain crosses four processes and four transactions.
const CHAIN_TIMEOUT_MS = 30_000;

/** The reference escalation as a new message: the fixture's id has been seen and its expiry has passed. */
function seedEscalation(): HandoffMessage {
  const message = structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as HandoffMessage;
  message.metadata.message_id = randomUUID();
  delete message.metadata.expiration_time;
  return message;
}

describe('the escalation chain, each agent its own process', () => {
  let rig: BatonRig;
  let topics: TopicNames;
  let supportInbox: RecordCollector;
  let level3Inbox: RecordCollector;
  let events: RecordCollector;
  let ledger: RecordCollector;
  let replies: RecordCollector;
  let publisher: HandoffPublisher;

  const handoffs = (collector: RecordCollector, taskId: string) => rig.handoffs(collector, taskId);

  const outcomeOf = (message: Immutable<HandoffMessage>, agentId: string) =>
    waitFor(
      async () =>
        (await rig.outcomes(events, message.metadata.task_id)).find(
          (event) => event.message_id === message.metadata.message_id && event.agent_id === agentId,
        ),
      { description: `${agentId}'s outcome of ${message.metadata.message_id}`, timeoutMs: CHAIN_TIMEOUT_MS },
    );

  const arrival = (collector: RecordCollector, taskId: string, description: string) =>
    waitFor(async () => (await handoffs(collector, taskId))[0], { description, timeoutMs: CHAIN_TIMEOUT_MS });

  // Each collector reads at its own pace, so the ledger entry may trail the event of its transaction.
  const ledgerEntries = (taskId: string): Promise<LedgerEntry[]> =>
    waitFor(
      () => {
        const mine = ledger.records.filter((record) => record.key === taskId);
        return mine.length > 0 && mine.map((record) => parseLedgerEntry(record.value as Buffer));
      },
      { description: `the ledger entries of ${taskId}`, timeoutMs: CHAIN_TIMEOUT_MS },
    );

  const replyFrom = (agentId: string, taskId: string) =>
    waitFor(async () => (await handoffs(replies, taskId)).find((reply) => reply.metadata.sender_id === agentId), {
      description: `${agentId}'s reply to the user`,
      timeoutMs: CHAIN_TIMEOUT_MS,
    });

  beforeAll(async () => {
    rig = await startBatonRig({
      name: 'chain',
      agents: ['customer-service-agent', 'technical-support-agent', 'level3-network-expert-agent'],
    });
    ({ topics, publisher } = rig);
    supportInbox = await rig.collect(topics.agentInbox(TECHNICAL_SUPPORT));
    level3Inbox = await rig.collect(topics.agentInbox(LEVEL3));
    events = await rig.collect(topics.events);
    ledger = await rig.collect(topics.ledger);
    replies = await rig.collect(topics.userReplies);
  });

  afterAll(async () => {
    const exitCodes = await rig?.stop();
    expect(Object.values(exitCodes)).toEqual([0, 0, 0, 0]);
  });

  it('escalates the reference escalation from technical support to the level-3 experts, previous actions intact', async () => {
    const message = seedEscalation();
    await publisher.publish(topics.inbound, message);

    const escalated = await arrival(level3Inbox, 'task-abc-456', 'the escalation in the level-3 inbox');
    expect(escalated.metadata).toMatchObject({
      task_id: 'task-abc-456',
      correlation_id: 'flow-xyz-123',
      sender_id: TECHNICAL_SUPPORT,
      recipient_id: LEVEL3,
      priority: 'HIGH',
    });
    expect(escalated.context.previous_actions).toEqual([
      ...message.context.previous_actions,
      {
        action_type: 'REMOTE_DIAGNOSTIC',
        details:
          'Remote diagnostic run; beyond tier 2: severity is CRITICAL; logs log_file_id_123 need expert analysis; symptoms describe intermittent drops.',
        timestamp: expect.any(String),
        agent_id: TECHNICAL_SUPPORT,
      },
    ]);
    expect(escalated.context.user_interaction_history).toEqual(message.context.user_interaction_history);
    expect(escalated.payload).toEqual(message.payload);
    // The original instructions travel up, less the escalate_to that was just used.
    expect(escalated.instructions).toEqual({
      next_steps_suggestion: message.instructions.next_steps_suggestion,
      required_actions: message.instructions.required_actions,
      constraints: message.instructions.constraints,
      success_criteria: message.instructions.success_criteria,
      failure_handling_strategy: { fallback_action: 'notify_customer_of_delay' },
    });

    expect(await outcomeOf(message, TECHNICAL_SUPPORT)).toMatchObject({ outcome: 'ESCALATED', target: LEVEL3 });
    expect((await replyFrom(TECHNICAL_SUPPORT, 'task-abc-456')).payload.data).toMatchObject({
      message: expect.stringContaining('will take a little longer'),
    });
    expect(await outcomeOf(escalated, LEVEL3)).toMatchObject({
      outcome: 'COMPLETED',
      detail: expect.stringContaining('Remedy: push_firmware_update'),
    });
    expect(await ledgerEntries('task-abc-456')).toEqual([
      expect.objectContaining({
        message_id: escalated.metadata.message_id,
        agent_id: LEVEL3,
        effect: 'push_firmware_update',
        args: { user_id: '[email protected]', router_model: 'RouterX-Pro', firmware_version: '4.2.1' },
      }),
    ]);
    expect((await replyFrom(LEVEL3, 'task-abc-456')).payload.data).toMatchObject({
      event_type: 'AGENT_REPLY',
      message: expect.stringContaining('firmware 4.2.1'),
    });
  });

  it('takes a customer’s network complaint from customer service through technical support to level 3, one action per hop', async () => {
    const taskId = uniqueName('task');
    const complaint = buildHandoff({
      metadata: { sender_id: 'triage_agent', recipient_id: CUSTOMER_SERVICE, task_id: taskId, priority: 'HIGH' },
      context: {
        workflow_state: 'TRIAGED',
        user_interaction_history: [
          {
            type: 'CHAT_MESSAGE',
            sender: 'User',
            content: 'My internet keeps dropping every hour.',
            timestamp: '2026-11-21T09:00:00.000Z',
          },
        ],
      },
      payload: {
        handoff_type: 'TASK_TRANSFER',
        data: {
          issue_category: 'GENERAL_SUPPORT',
          task_summary: 'Customer’s home internet is unreliable.',
          customer_info: { user_id: 'cust-2002', name: 'Alice Smith' },
          attributes: { isp: 'GlobalNet' },
        },
      },
    });
    await publisher.publish(topics.inbound, complaint);

    const atSupport = await arrival(supportInbox, taskId, 'the escalation in the technical support inbox');
    expect(atSupport.metadata).toMatchObject({ sender_id: CUSTOMER_SERVICE, priority: 'HIGH' });
    expect(atSupport.payload).toEqual({
      handoff_type: 'ESCALATION',
      data: {
        issue_category: 'NETWORK_CONNECTIVITY',
        severity: 'HIGH',
        customer_info: { user_id: 'cust-2002', name: 'Alice Smith' },
        technical_details: {
          isp: 'GlobalNet',
          symptoms: 'Customer’s home internet is unreliable. / My internet keeps dropping every hour.',
        },
      },
    });
    expect(atSupport.instructions.failure_handling_strategy?.escalate_to).toBe(LEVEL3);
    expect(atSupport.context.previous_actions.map((action) => [action.agent_id, action.action_type])).toEqual([
      [CUSTOMER_SERVICE, 'DIAGNOSTIC_ATTEMPT'],
    ]);

    const atLevel3 = await arrival(level3Inbox, taskId, 'the escalation in the level-3 inbox');
    expect(atLevel3.metadata.sender_id).toBe(TECHNICAL_SUPPORT);
    expect(atLevel3.context.previous_actions).toEqual([
      ...atSupport.context.previous_actions,
      expect.objectContaining({ action_type: 'REMOTE_DIAGNOSTIC', agent_id: TECHNICAL_SUPPORT }),
    ]);
    expect(atLevel3.payload).toEqual(atSupport.payload);

    expect(await outcomeOf(complaint, CUSTOMER_SERVICE)).toMatchObject({
      outcome: 'ESCALATED',
      target: TECHNICAL_SUPPORT,
    });
    expect(await outcomeOf(atSupport, TECHNICAL_SUPPORT)).toMatchObject({ outcome: 'ESCALATED', target: LEVEL3 });
    expect(await outcomeOf(atLevel3, LEVEL3)).toMatchObject({ outcome: 'COMPLETED' });
    expect(await ledgerEntries(taskId)).toEqual([
      expect.objectContaining({
        message_id: atLevel3.metadata.message_id,
        effect: 'schedule_field_visit',
        args: { user_id: 'cust-2002', isp: 'GlobalNet' },
      }),
    ]);
  });

  it('resolves at technical support what tier 2 can, sending nothing to level 3', async () => {
    const taskId = uniqueName('task');
    const escalation = (severity: 'MEDIUM' | 'CRITICAL', symptoms: string) =>
      buildHandoff({
        metadata: { sender_id: CUSTOMER_SERVICE, recipient_id: TECHNICAL_SUPPORT, task_id: taskId },
        payload: {
          handoff_type: 'ESCALATION',
          data: {
            issue_category: 'NETWORK_CONNECTIVITY',
            severity,
            customer_info: { user_id: 'cust-3003', name: 'Bo Lee' },
            technical_details: { symptoms },
          },
        },
        instructions: { failure_handling_strategy: { escalate_to: LEVEL3 } },
      });
    const resolvable = escalation('MEDIUM', 'Slow Wi-Fi in the bedroom.');
    await publisher.publish(topics.inbound, resolvable);

    const event = await outcomeOf(resolvable, TECHNICAL_SUPPORT);
    expect(event).toMatchObject({ outcome: 'COMPLETED', detail: 'Resolved at tier 2: WIFI_CONGESTION.' });
    expect(event.target).toBeUndefined();
    expect((await replyFrom(TECHNICAL_SUPPORT, taskId)).payload.data).toMatchObject({
      message: expect.stringContaining('5 GHz'),
    });

    // A later escalation of the same task takes the same partitions: once it is in the level-3
    // inbox, anything technical support had sent for the first would be there before it.
    const later = escalation('CRITICAL', 'No internet at all.');
    await publisher.publish(topics.inbound, later);
    await arrival(level3Inbox, taskId, 'the later escalation in the level-3 inbox');
    expect((await handoffs(level3Inbox, taskId)).map((handoff) => handoff.context.previous_actions.length)).toEqual([
      1,
    ]);
    expect((await handoffs(level3Inbox, taskId))[0]?.context.previous_actions[0]?.details).toBe(
      'Remote diagnostic run; beyond tier 2: severity is CRITICAL.',
    );
  });

  it('takes status updates and answers as PROCESSED, and dead-letters what is not its work', async () => {
    const taskId = uniqueName('task');
    const metadata = { sender_id: LEVEL3, recipient_id: TECHNICAL_SUPPORT, task_id: taskId };
    const update = buildHandoff({
      metadata,
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: 'On it.' } },
    });
    const transfer = buildHandoff({
      metadata,
      payload: {
        handoff_type: 'TASK_TRANSFER',
        data: { issue_category: 'GENERAL_SUPPORT', task_summary: 'Not a technical support task.' },
      },
    });
    const answer = buildHandoff({
      metadata,
      payload: { handoff_type: 'PROVIDE_INFORMATION', data: { provided_info: { line_test: 'PASSED' } } },
    });
    for (const message of [update, answer, transfer]) await publisher.publish(topics.inbound, message);

    expect(await outcomeOf(update, TECHNICAL_SUPPORT)).toMatchObject({ outcome: 'PROCESSED' });
    expect(await outcomeOf(answer, TECHNICAL_SUPPORT)).toMatchObject({ outcome: 'PROCESSED' });
    expect(await outcomeOf(transfer, TECHNICAL_SUPPORT)).toMatchObject({
      outcome: 'DEAD_LETTERED',
      error_code: 'NO_HANDLER',
    });
  });
});
