import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { BatonError, hasErrorCode } from '@baton/errors';
import { topicNames, type ConsumedRecord, type OutputRecord } from '@baton/kafka';
import {
  buildLifecycleMessage,
  parseHandoff,
  type HandoffMessage,
  type Immutable,
  type LifecycleMessage,
} from '@baton/protocol';
import {
  createHandoffCodec,
  createLifecycleCodec,
  memorySchemaRegistry,
  type HandoffCodec,
  type LifecycleCodec,
} from '@baton/wire';
import { handoffContextData, type ContextSink } from './context-offer.js';
import type { ContextSource } from './context-takeover.js';
import { controlProcessor, type ControlProcessorOptions } from './control-processor.js';
import type { CapabilityCard } from './decide-on-request.js';
import { CLAIM_CHECK_HEADER, resolveClaimCheck } from './inbox-claim-check.js';
import { lifecycleRecord } from './lifecycle-record.js';
import { wrappingStage } from './wrapping-stage.test-helper.js';

/** A reference to `bytes` as if stored in partition 0 of the contexts topic. */
const storedRef = (bytes: Buffer) => ({
  uri: 'kafka://t.contexts/0/3',
  sha256: 'a'.repeat(64),
  size_bytes: bytes.length,
  content_type: 'application/json',
});

const require = createRequire(import.meta.url);
const topics = topicNames('t');
const AGENT = 'net_expert';
const SENDER = 'customer_service_agent';
const TASK = 'task-abc-456';
const seed = require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage;
const handoff = parseHandoff({ ...seed, metadata: { ...seed.metadata, sender_id: SENDER, recipient_id: AGENT } });
const now = () => new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
const card: CapabilityCard = {
  agent_id: AGENT,
  name: 'NetExpert',
  domain: 'network',
  skills: [{ name: 'NetworkExpert' }],
};

/** The real codecs, over a registry held in memory. */
let codecs: { codec: HandoffCodec; lifecycleCodec: LifecycleCodec };
beforeAll(async () => {
  const registry = memorySchemaRegistry();
  const [codec, lifecycleCodec] = await Promise.all([createHandoffCodec(registry), createLifecycleCodec(registry)]);
  codecs = { codec, lifecycleCodec };
});

/** A context store whose get answers `get`, and which records what is put in it. */
function store(get: ContextSource['get'] = () => Promise.reject(new Error('no context should be fetched'))) {
  const puts: Buffer[] = [];
  const contexts: ContextSource & ContextSink = {
    get,
    async put(bytes, options) {
      puts.push(bytes);
      return {
        uri: 'kafka://t.contexts/1/9',
        sha256: 'b'.repeat(64),
        size_bytes: bytes.length,
        content_type: options.contentType,
      };
    },
  };
  return { contexts, puts };
}
const noStore = store().contexts;

/** The agent's inbox record of a handoff, as its own outputs write one: the encoded handoff, its ids in the headers. */
const inboxRecord: ControlProcessorOptions['inboxRecord'] = (message, parentTraceparent) => ({
  topic: topics.agentInbox(AGENT),
  key: message.metadata.task_id,
  value: codecs.codec.encode(message),
  headers: {
    ce_id: message.metadata.message_id,
    ce_type: message.payload.handoff_type,
    ...(parentTraceparent === undefined ? {} : { traceparent: parentTraceparent }),
  },
});

function processorWith(options: Partial<ControlProcessorOptions> = {}) {
  return controlProcessor({
    agentId: AGENT,
    card,
    config: { capacity: Number.POSITIVE_INFINITY, estimatedHandoffSeconds: 5 },
    inboxRecord,
    lifecycleCodec: codecs.lifecycleCodec,
    topics,
    queued: () => Promise.reject(new Error('the lag should not be read at unlimited capacity')),
    liveAgents: async () => [],
    contexts: noStore,
    now,
    ...options,
  });
}

function consumed(message: Immutable<LifecycleMessage>): ConsumedRecord {
  const record = lifecycleRecord(codecs.lifecycleCodec, topics.agentControl(AGENT), message);
  return { ...record, partition: 0, offset: '0', headers: record.headers ?? {}, timestamp: '0' };
}

async function run(processor: ReturnType<typeof controlProcessor>, message: Immutable<LifecycleMessage>) {
  const record = consumed(message);
  const decoded = await processor.decode(record);
  return processor.process(decoded, { record, attempt: 1 });
}

const decodeLifecycle = (records: OutputRecord[]) =>
  Promise.all(records.map((record) => codecs.lifecycleCodec.decode(record.value)));

function request(receiver = AGENT, desired = 'networkexpert') {
  return buildLifecycleMessage('HandoffRequest', {
    sender_id: SENDER,
    receiver_id: receiver,
    task_id: TASK,
    payload: { reason: 'needs tier 3', desired_agent_type: desired, priority: 'HIGH', initial_context_summary: 'DHCP' },
  });
}

function transfer(payload: LifecycleMessage<'TaskContextTransfer'>['payload']) {
  return buildLifecycleMessage('TaskContextTransfer', {
    sender_id: SENDER,
    receiver_id: AGENT,
    task_id: TASK,
    correlation_id: 'request-1',
    payload,
  });
}

describe('the control topic processor: requests', () => {
  it('decodes by message_id and labels metrics by message type', async () => {
    const message = request();
    expect(await processorWith().decode(consumed(message))).toMatchObject({
      messageId: message.message_id,
      labels: { handoff_type: 'HandoffRequest' },
    });
  });

  it('accepts a request it can take, on the events topic only, in reply to the request', async () => {
    const message = request();
    // The registry is read only for a rejection's suggestions.
    const processor = processorWith({ liveAgents: () => Promise.reject(new Error('the registry should not be read')) });
    const outputs = await run(processor, message);
    expect(outputs.map((record) => record.topic)).toEqual(['t.events']);
    expect(outputs[0]?.key).toBe(TASK);
    expect(await decodeLifecycle(outputs)).toMatchObject([
      {
        message_type: 'HandoffAccept',
        sender_id: AGENT,
        receiver_id: SENDER,
        task_id: TASK,
        correlation_id: message.message_id,
        payload: { estimated_handoff_time: 5 },
      },
    ]);
  });

  it('rejects at capacity, from the inbox lag, suggesting live agents of the type', async () => {
    const processor = processorWith({
      config: { capacity: 2, estimatedHandoffSeconds: 5 },
      queued: async () => 2,
      liveAgents: async () => [card, { agent_id: 'other_expert', name: 'X', domain: 'network', skills: [] }],
    });
    const message = request('net_expert', 'Network');
    expect(await decodeLifecycle(await run(processor, message))).toMatchObject([
      {
        message_type: 'HandoffReject',
        receiver_id: SENDER,
        correlation_id: message.message_id,
        payload: {
          reason: 'overloaded: 2 handoffs queued, capacity 2',
          alternative_agent_suggestions: ['other_expert'],
        },
      },
    ]);
  });

  it('ignores a request to another agent, and lifecycle messages it need not act on', async () => {
    expect(await run(processorWith(), request('someone_else'))).toEqual([]);
    const accept = buildLifecycleMessage('HandoffAccept', {
      sender_id: SENDER,
      receiver_id: AGENT,
      task_id: TASK,
      correlation_id: 'request-1',
      payload: { estimated_handoff_time: 1 },
    });
    expect(await run(processorWith(), accept)).toEqual([]);
  });
});

describe('the control topic processor: contexts', () => {
  it('takes a context over: HandoffComplete SUCCESS, and the handoff into its own inbox', async () => {
    const outputs = await run(processorWith(), transfer({ context_data: handoffContextData(handoff, 'x') }));
    expect(outputs.map((record) => record.topic)).toEqual(['t.events', `t.agent.${AGENT}.inbox`]);
    expect(await codecs.lifecycleCodec.decode(outputs[0]?.value as Buffer)).toMatchObject({
      message_type: 'HandoffComplete',
      sender_id: AGENT,
      receiver_id: SENDER,
      task_id: TASK,
      correlation_id: 'request-1',
      payload: { handoff_status: 'SUCCESS' },
    });
    expect(outputs[1]).toMatchObject({ key: TASK, headers: { ce_id: handoff.metadata.message_id } });
    expect(await codecs.codec.decode(outputs[1]?.value as Buffer)).toEqual(handoff);
  });

  it('fetches a context sent by reference', async () => {
    const bytes = Buffer.from(JSON.stringify(handoffContextData(handoff, 'x')));
    const ref = storedRef(bytes);
    const fetched: string[] = [];
    const { contexts } = store(async (asked) => (fetched.push(asked.uri), bytes));
    const outputs = await run(processorWith({ contexts }), transfer({ context_ref: ref }));
    expect(fetched).toEqual([ref.uri]);
    expect(await codecs.codec.decode(outputs[1]?.value as Buffer)).toEqual(handoff);
  });

  it('sends a handoff too large for a record as a claim check naming the context it came in', async () => {
    const large = parseHandoff({
      ...handoff,
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: 'x'.repeat(1_100_000) } },
    });
    const bytes = Buffer.from(JSON.stringify(handoffContextData(large, 'x')));
    const ref = storedRef(bytes);
    const { contexts, puts } = store(async () => bytes);
    const outputs = await run(processorWith({ contexts }), transfer({ context_ref: ref }));
    expect(puts).toEqual([]);
    const inbox = outputs[1] as OutputRecord;
    expect(inbox).toMatchObject({
      topic: `t.agent.${AGENT}.inbox`,
      key: TASK,
      headers: {
        ce_id: large.metadata.message_id,
        ce_type: 'STATUS_UPDATE',
        [CLAIM_CHECK_HEADER]: 'context_ref',
        'content-type': 'application/json',
      },
    });
    expect(JSON.parse(inbox.value.toString())).toEqual(ref);
    const consumedInbox = { ...inbox, partition: 0, offset: '0', headers: inbox.headers ?? {}, timestamp: '0' };
    expect(await resolveClaimCheck(consumedInbox, contexts)).toEqual(large);
  });

  it('stores a handoff too large for a record that came by value, and sends the claim check', async () => {
    const large = parseHandoff({
      ...handoff,
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: 'x'.repeat(1_100_000) } },
    });
    const { contexts, puts } = store();
    const outputs = await run(processorWith({ contexts }), transfer({ context_data: handoffContextData(large, 'x') }));
    expect(puts).toEqual([Buffer.from(JSON.stringify(handoffContextData(large, 'x')))]);
    expect(JSON.parse(outputs[1]?.value.toString() ?? '')).toMatchObject({ uri: 'kafka://t.contexts/1/9' });
    // Validating and encoding a 1.1 MB handoff takes seconds of CPU on a busy 2-core machine.
  }, 30_000);

  it('opens a sealed context fetched by reference with its stage, and answers one it cannot open PERSONAL_DATA_UNREADABLE', async () => {
    const contextStage = wrappingStage();
    const sealed = Buffer.from(JSON.stringify(contextStage.seal(handoffContextData(handoff, 'x'))));
    const { contexts } = store(async () => sealed);
    const outputs = await run(processorWith({ contexts, contextStage }), transfer({ context_ref: storedRef(sealed) }));
    expect(await codecs.codec.decode(outputs[1]?.value as Buffer)).toEqual(handoff);
    const clear = Buffer.from(JSON.stringify(handoffContextData(handoff, 'x')));
    const unreadable = await run(
      processorWith({ contexts: store(async () => clear).contexts, contextStage }),
      transfer({ context_ref: storedRef(clear) }),
    );
    expect(await decodeLifecycle(unreadable)).toMatchObject([
      { message_type: 'HandoffComplete', payload: { handoff_status: 'FAILURE' } },
      { message_type: 'ErrorNotification', payload: { error_code: 'PERSONAL_DATA_UNREADABLE' } },
    ]);
  });

  it('seals a handoff too large for a record that came by value before storing it, and resolves its claim check', async () => {
    const large = parseHandoff({
      ...handoff,
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: 'x'.repeat(1_100_000) } },
    });
    const contextStage = wrappingStage();
    // The claim check is resolved from what the processor stored.
    const { contexts, puts } = store(async () => puts[0] as Buffer);
    const outputs = await run(
      processorWith({ contexts, contextStage }),
      transfer({ context_data: handoffContextData(large, 'x') }),
    );
    expect(puts).toEqual([Buffer.from(JSON.stringify(contextStage.seal(handoffContextData(large, 'x'))))]);
    const inbox = outputs[1] as OutputRecord;
    const consumedInbox = { ...inbox, partition: 0, offset: '0', headers: inbox.headers ?? {}, timestamp: '0' };
    expect(await resolveClaimCheck(consumedInbox, contexts, contextStage)).toEqual(large);
    // Validating and encoding a 1.1 MB handoff takes seconds of CPU on a busy 2-core machine.
  }, 30_000);

  it('answers a context it cannot use with HandoffComplete FAILURE and an ErrorNotification, nothing to the inbox', async () => {
    const ref = storedRef(Buffer.alloc(9));
    const { contexts } = store(() =>
      Promise.reject(new BatonError('CONTEXT_INTEGRITY_FAILED', 'sha256 differs', { path: '/sha256' })),
    );
    const outputs = await run(processorWith({ contexts }), transfer({ context_ref: ref }));
    expect(outputs.map((record) => record.topic)).toEqual(['t.events', 't.events']);
    expect(await decodeLifecycle(outputs)).toMatchObject([
      { message_type: 'HandoffComplete', correlation_id: 'request-1', payload: { handoff_status: 'FAILURE' } },
      {
        message_type: 'ErrorNotification',
        sender_id: AGENT,
        receiver_id: SENDER,
        task_id: TASK,
        correlation_id: 'request-1',
        payload: {
          error_code: 'CONTEXT_INTEGRITY_FAILED',
          error_message: 'sha256 differs',
          severity: 'WARNING',
          origin_agent_id: AGENT,
        },
      },
    ]);
  });

  it('answers a context without a valid handoff the same way, VALIDATION_FAILED', async () => {
    const outputs = await run(processorWith(), transfer({ context_data: { schema_version: 'other' } }));
    expect(await decodeLifecycle(outputs)).toMatchObject([
      { payload: { handoff_status: 'FAILURE' } },
      { payload: { error_code: 'VALIDATION_FAILED' } },
    ]);
  });

  it('throws a retriable failure, so the consumer tries again', async () => {
    const ref = storedRef(Buffer.alloc(9));
    const { contexts } = store(() => Promise.reject(new BatonError('KAFKA_UNAVAILABLE', 'no broker')));
    const error = await run(processorWith({ contexts }), transfer({ context_ref: ref })).catch(
      (thrown: unknown) => thrown,
    );
    expect(hasErrorCode(error, 'KAFKA_UNAVAILABLE')).toBe(true);
  });

  it('answers FAILURE for a context dead-lettered after its retries, and nothing for other messages', async () => {
    const processor = processorWith();
    const error = new BatonError('RETRIES_EXHAUSTED', 'gave up');
    const dead = async (message: Immutable<LifecycleMessage>) => {
      const record = consumed(message);
      return (
        processor.deadLetterOutputs?.({ record, message: await processor.decode(record), error, attempts: 4 }) ?? []
      );
    };
    expect(await decodeLifecycle(await dead(transfer({ context_data: {} })))).toMatchObject([
      { message_type: 'HandoffComplete', payload: { handoff_status: 'FAILURE' } },
      { message_type: 'ErrorNotification', payload: { error_code: 'RETRIES_EXHAUSTED' } },
    ]);
    expect(await dead(request())).toEqual([]);
  });
});
