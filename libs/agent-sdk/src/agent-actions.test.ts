import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { topicNames, type OutputRecord } from '@baton/kafka';
import { parseHandoff, type HandoffMessage, type Immutable, type LifecycleMessage } from '@baton/protocol';
import { AgentActions, type AgentActionsContext, type RequestedHandoff } from './agent-actions.js';
import { testCodecs, type TestCodecs } from './codecs.test-helper.js';

const require = createRequire(import.meta.url);
const incoming = parseHandoff(require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage);
const topics = topicNames('t');
const AGENT = 'technical_support_agent_pool';
const EXPERT = 'level3_network_expert_agent_pool';
const now = () => new Date(Date.UTC(2026, 10, 21, 12, 0, 0));

let codecs: TestCodecs;
beforeAll(async () => {
  codecs = await testCodecs();
});

/** AgentActions over the real codecs, a context store in memory and a record of the control topics ensured. */
function actions(inlineMaxBytes = 256 * 1024, handoff: Immutable<HandoffMessage> = incoming) {
  const puts: { key: string; contentType: string; bytes: Buffer }[] = [];
  const ensured: string[] = [];
  const context: AgentActionsContext = {
    ...codecs,
    topics,
    inlineMaxBytes,
    contexts: {
      async put(bytes, options) {
        puts.push({ ...options, bytes });
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        return { uri: 'kafka://t.contexts/2/40', sha256, size_bytes: bytes.length, content_type: options.contentType };
      },
    },
    ensureControlTopic: async (agentId) => void ensured.push(agentId),
  };
  return { act: new AgentActions(AGENT, handoff, context, undefined, now), puts, ensured };
}

const request: RequestedHandoff<'ESCALATION'> = {
  to: EXPERT,
  reason: 'needs tier 3',
  desired_agent_type: 'NetworkExpert',
  handoff_type: 'ESCALATION',
  data: structuredClone(incoming.payload.data) as RequestedHandoff<'ESCALATION'>['data'],
  action: { action_type: 'REMOTE_DIAGNOSTIC', details: 'DHCP fails on the WAN port.' },
  expiration_time: '2026-11-21T14:00:00.000Z',
  instructions: {
    constraints: { time_limit: 'PT2H' },
    failure_handling_strategy: { retry_count: 1, escalate_to: 'human_agent' },
  },
};

async function decodeAll(records: OutputRecord[]) {
  return Promise.all(
    records.map(async (record) => {
      const type = record.headers?.ce_type ?? '';
      if (type === 'baton.lifecycle.StagedContext') return codecs.stagedCodec.decode(record.value);
      if (type.startsWith('baton.lifecycle.')) return codecs.lifecycleCodec.decode(record.value);
      if (type.startsWith('baton.outcome.')) return codecs.outcomeCodec.decode(record.value);
      return codecs.codec.decode(record.value);
    }),
  );
}

describe('act.requestHandoff', () => {
  it('queues the staged context and the request on the events topic, the request on the receiver’s control topic, then the outcome', async () => {
    const { act, puts, ensured } = actions();
    const offered = await act.requestHandoff(request);
    const records = act.outputs();
    expect(records.map((record) => record.topic)).toEqual([
      't.events',
      't.events',
      `t.agent.${EXPERT}.control`,
      't.events',
    ]);
    expect(records.map((record) => record.key)).toEqual(Array(4).fill(incoming.metadata.task_id));
    expect(records[2]?.value).toEqual(records[1]?.value);
    expect(ensured).toEqual([EXPERT]);
    expect(puts).toEqual([]);

    const [staged, sent, , outcome] = await decodeAll(records);
    const requestMessage = sent as Immutable<LifecycleMessage<'HandoffRequest'>>;
    expect(requestMessage).toMatchObject({
      message_type: 'HandoffRequest',
      sender_id: AGENT,
      receiver_id: EXPERT,
      task_id: incoming.metadata.task_id,
      payload: {
        reason: 'needs tier 3',
        desired_agent_type: 'NetworkExpert',
        priority: 'HIGH',
        initial_context_summary: incoming.context.historical_data_summary,
      },
    });
    expect(requestMessage.correlation_id).toBeUndefined();
    expect(staged).toEqual({
      request_message_id: requestMessage.message_id,
      task_id: incoming.metadata.task_id,
      sender_id: AGENT,
      staged_at: '2026-11-21T12:00:00.000Z',
      context: {
        context_data: {
          schema_version: 'baton.handoff.v1',
          task_description: 'DHCP fails on the WAN port.',
          handoff: offered,
        },
      },
      terms: {
        desired_agent_type: 'NetworkExpert',
        reason: 'needs tier 3',
        expiration_time: '2026-11-21T14:00:00.000Z',
        time_limit: 'PT2H',
        failure_handling_strategy: { retry_count: 1, escalate_to: 'human_agent' },
      },
    });
    expect(outcome).toMatchObject({
      message_id: incoming.metadata.message_id,
      agent_id: AGENT,
      outcome: 'HANDOFF_REQUESTED',
      target: EXPERT,
    });
    expect(offered.metadata).toMatchObject({
      sender_id: AGENT,
      recipient_id: EXPERT,
      task_id: incoming.metadata.task_id,
      expiration_time: '2026-11-21T14:00:00.000Z',
    });
    expect(offered.context.previous_actions.at(-1)).toMatchObject({
      action_type: 'REMOTE_DIAGNOSTIC',
      agent_id: AGENT,
    });
  });

  it('stores a context over the inline limit and stages its reference instead', async () => {
    const { act, puts } = actions(1_000);
    const offered = await act.requestHandoff(request);
    const [staged] = await decodeAll(act.outputs());
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ key: incoming.metadata.task_id, contentType: 'application/json' });
    expect(JSON.parse(puts[0]?.bytes.toString() ?? '')).toMatchObject({ handoff: JSON.parse(JSON.stringify(offered)) });
    expect(staged).toMatchObject({
      context: {
        context_ref: {
          uri: 'kafka://t.contexts/2/40',
          size_bytes: puts[0]?.bytes.length,
          content_type: 'application/json',
        },
      },
    });
  });

  it('stages only the terms the handoff sets, and summarises with the action when there is no history', async () => {
    const bare = parseHandoff({
      ...structuredClone(incoming),
      context: { workflow_state: 'NEW', previous_actions: [] },
    } as HandoffMessage);
    const { act } = actions(256 * 1024, bare);
    await act.requestHandoff({ ...request, expiration_time: undefined, instructions: {} });
    const [staged, sent] = await decodeAll(act.outputs());
    expect(staged).toMatchObject({ terms: { desired_agent_type: 'NetworkExpert', reason: 'needs tier 3' } });
    expect(Object.keys((staged as { terms: object }).terms).sort()).toEqual(['desired_agent_type', 'reason']);
    expect(sent).toMatchObject({ payload: { initial_context_summary: 'DHCP fails on the WAN port.' } });
  });

  it('refuses to give its outputs while a request is still storing its context', async () => {
    const { act } = actions(0);
    const pending = act.requestHandoff(request);
    expect(() => act.outputs()).toThrow(/await it/);
    await pending;
    expect(act.outputs()).toHaveLength(4);
  });

  it('names the action that moves the task most: an escalation outranks a request, a reply does not', async () => {
    const escalating = actions().act;
    await escalating.requestHandoff(request);
    escalating.escalate({ action_type: 'ESCALATE', details: 'no answer' }, { to: 'human_agent' });
    const replying = actions().act;
    await replying.requestHandoff(request);
    replying.replyToUser('An expert is being asked.');
    const outcomeOf = async (act: AgentActions) => (await decodeAll(act.outputs())).at(-1);
    expect(await outcomeOf(escalating)).toMatchObject({ outcome: 'ESCALATED', target: `${EXPERT},human_agent` });
    expect(await outcomeOf(replying)).toMatchObject({ outcome: 'HANDOFF_REQUESTED', target: EXPERT });
  });
});
