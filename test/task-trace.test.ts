import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHandoff } from '@baton/protocol';
import {
  startBatonRig,
  startOtlpReceiver,
  uniqueName,
  waitFor,
  type BatonRig,
  type OtlpReceiver,
  type ReceivedSpan,
  type RecordCollector,
  type ServiceProcess,
  expectCleanExits,
} from './helpers/index.js';

const TRIAGE = 'triage_agent';
const SALES = 'sales_agent';
const PUBLISHER_TOKEN = 'trace-publisher-token';
// The client's own span, which the gateway's must continue.
const CLIENT_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN_ID = 'b7ad6b7169203331';
const FLOW_TIMEOUT_MS = 30_000;

// OTLP's SpanKind numbers.
const INTERNAL = 1;
const PRODUCER = 4;
const CONSUMER = 5;

interface Hop {
  service: string;
  name: string;
  kind: number;
}

/**
 * The hops from the gateway's span down, each the only child of the one before with its service
 * and name; undefined until every one has arrived.
 */
function chainOf(spans: readonly ReceivedSpan[], hops: readonly Hop[]): ReceivedSpan[] | undefined {
  const chain: ReceivedSpan[] = [];
  let parentSpanId = CLIENT_SPAN_ID;
  for (const hop of hops) {
    const next = spans.filter(
      (span) => span.parentSpanId === parentSpanId && span.serviceName === hop.service && span.name === hop.name,
    );
    if (next.length > 1) throw new Error(`${next.length} spans ${hop.name} under ${parentSpanId}`);
    if (next[0] === undefined) return undefined;
    chain.push(next[0]);
    parentSpanId = next[0].spanId;
  }
  return chain;
}

describe('one trace for a task across the gateway, the router and the agents', () => {
  let receiver: OtlpReceiver;
  let rig: BatonRig;
  let gateway: ServiceProcess;
  let salesInbox: RecordCollector;

  beforeAll(async () => {
    // Over gRPC here, JSON below, protobuf (the default) in the model agents' test.
    receiver = await startOtlpReceiver('grpc');
    rig = await startBatonRig({
      name: 'trace',
      agents: ['triage-agent', 'sales-agent'],
      // No OTEL_SERVICE_NAME: each service names itself.
      serviceEnv: () => ({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: receiver.protocol,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      }),
    });
    gateway = await rig.addProcess('gateway', 'services/gateway/src/main.ts', {
      BATON_API_KEYS: `tracing:${PUBLISHER_TOKEN}:publisher`,
    });
    salesInbox = await rig.collect(rig.topics.agentInbox(SALES));
  });

  afterAll(async () => {
    const exitCodes = await rig?.stop();
    await receiver?.close();
    expectCleanExits(exitCodes);
  });

  it('links publish, route, triage, route and sales as parent and child, one trace id throughout', async () => {
    const { topics } = rig;
    const taskId = uniqueName('task');
    const request = buildHandoff({
      metadata: { sender_id: 'user', recipient_id: TRIAGE, task_id: taskId },
      context: { previous_actions: [], user_interaction_history: [] },
      payload: {
        handoff_type: 'TASK_TRANSFER',
        data: {
          issue_category: 'UNCLASSIFIED',
          task_summary: 'I want to buy the RouterX-Pro mesh kit',
          customer_info: { user_id: 'cust-trace', name: 'Wile E. Coyote' },
        },
      },
    });
    const response = await fetch(`${gateway.address}/v1/handoffs`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${PUBLISHER_TOKEN}`,
        'content-type': 'application/json',
        traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`,
      },
      body: JSON.stringify(request),
    });
    expect(response.status).toBe(202);
    const { message_id: messageId } = (await response.json()) as { message_id: string };
    expect(messageId).toBe(request.metadata.message_id);

    const triageInbox = topics.agentInbox(TRIAGE);
    const hops: Hop[] = [
      { service: 'gateway', name: `send ${topics.inbound}`, kind: PRODUCER },
      { service: 'router', name: `process ${topics.inbound}`, kind: CONSUMER },
      { service: 'router', name: 'handle TASK_TRANSFER', kind: INTERNAL },
      { service: 'router', name: `create ${triageInbox}`, kind: PRODUCER },
      { service: `agent.${TRIAGE}`, name: `process ${triageInbox}`, kind: CONSUMER },
      { service: `agent.${TRIAGE}`, name: 'handle TASK_TRANSFER', kind: INTERNAL },
      { service: `agent.${TRIAGE}`, name: `create ${topics.inbound}`, kind: PRODUCER },
      { service: 'router', name: `process ${topics.inbound}`, kind: CONSUMER },
      { service: 'router', name: 'handle TASK_TRANSFER', kind: INTERNAL },
      { service: 'router', name: `create ${topics.agentInbox(SALES)}`, kind: PRODUCER },
      { service: `agent.${SALES}`, name: `process ${topics.agentInbox(SALES)}`, kind: CONSUMER },
      { service: `agent.${SALES}`, name: 'handle TASK_TRANSFER', kind: INTERNAL },
      { service: `agent.${SALES}`, name: `create ${topics.userReplies}`, kind: PRODUCER },
    ];
    const chain = await waitFor(() => chainOf(receiver.spans, hops), {
      description: 'the spans of the task from the gateway to the reply',
      timeoutMs: FLOW_TIMEOUT_MS,
    });

    expect(chain.map(({ serviceName, name, kind }) => ({ service: serviceName, name, kind }))).toEqual(hops);
    expect(new Set(chain.map((span) => span.traceId))).toEqual(new Set([CLIENT_TRACE_ID]));
    // Every span about the task, the outcome events' and the ledger's included, is in that one trace.
    const ofTask = receiver.spans.filter(
      (span) =>
        span.attributes['baton.task_id'] === taskId || span.attributes['messaging.kafka.message.key'] === taskId,
    );
    expect(ofTask.length).toBeGreaterThan(chain.length);
    expect(new Set(ofTask.map((span) => span.traceId))).toEqual(new Set([CLIENT_TRACE_ID]));
    const inTrace = receiver.spans.filter((span) => span.traceId === CLIENT_TRACE_ID);
    const spanIds = new Set(inTrace.map((span) => span.spanId));
    expect(inTrace.filter((span) => !spanIds.has(span.parentSpanId))).toEqual([chain[0]]);
    expect(new Set(inTrace.map((span) => span.serviceName))).toEqual(
      new Set(['gateway', 'router', `agent.${TRIAGE}`, `agent.${SALES}`]),
    );

    const [send, routerConsume, routerHandle, , , triageHandle, , , , toSales, salesConsume, salesHandle, reply] =
      chain as ReceivedSpan[];
    expect(send?.attributes).toMatchObject({
      'messaging.system': 'kafka',
      'messaging.destination.name': topics.inbound,
      'messaging.operation.type': 'send',
      'messaging.kafka.message.key': taskId,
      'messaging.message.id': messageId,
      'baton.task_id': taskId,
      'baton.handoff_type': 'TASK_TRANSFER',
    });
    expect(routerConsume?.attributes).toMatchObject({
      'messaging.system': 'kafka',
      'messaging.destination.name': topics.inbound,
      'messaging.operation.type': 'process',
      'messaging.consumer.group.name': `${topics.prefix}.router`,
      'messaging.kafka.message.key': taskId,
      'messaging.message.id': messageId,
      'baton.attempt': 1,
      'baton.outcome': 'processed',
    });
    expect(routerHandle?.attributes).toMatchObject({
      'baton.task_id': taskId,
      'baton.message_id': messageId,
      'baton.handoff_type': 'TASK_TRANSFER',
      'baton.agent_id': 'router',
      'baton.sender_id': 'user',
      'baton.recipient_id': TRIAGE,
    });
    expect(triageHandle?.attributes).toMatchObject({ 'baton.agent_id': TRIAGE, 'baton.message_id': messageId });
    expect(salesHandle?.attributes).toMatchObject({
      'baton.agent_id': SALES,
      'baton.sender_id': TRIAGE,
      'baton.issue_category': 'SALES',
    });
    expect(salesConsume?.attributes['messaging.message.id']).toBe(salesHandle?.attributes['baton.message_id']);
    expect(reply?.attributes).toMatchObject({
      'messaging.operation.type': 'create',
      'messaging.destination.name': topics.userReplies,
      'messaging.kafka.message.key': taskId,
    });

    // What the router wrote to sales' inbox names the router's span as the parent of sales' own.
    const forwarded = await waitFor(() => salesInbox.records.find((record) => record.key === taskId), {
      description: 'the transfer in the sales inbox',
    });
    expect(forwarded.headers.traceparent).toBe(`00-${CLIENT_TRACE_ID}-${toSales?.spanId}-01`);
  });
});

describe('a stopping service', () => {
  let receiver: OtlpReceiver;
  let rig: BatonRig;

  beforeAll(async () => {
    receiver = await startOtlpReceiver('http/json');
    rig = await startBatonRig({
      name: 'trace-stop',
      agents: [],
      // Ten minutes: no batch is exported on its schedule while the test runs, only at the stop.
      serviceEnv: () => ({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: receiver.protocol,
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      }),
    });
  });

  afterAll(async () => {
    await rig?.stop();
    await receiver?.close();
  });

  it('exports its last spans after the drain, before it exits', async () => {
    const { topics } = rig;
    const events = await rig.collect(topics.events);
    const taskId = uniqueName('task');
    await rig.publisher.publish(
      topics.inbound,
      buildHandoff({
        metadata: { sender_id: 'user', recipient_id: TRIAGE, task_id: taskId },
        payload: {
          handoff_type: 'TASK_TRANSFER',
          data: {
            issue_category: 'UNCLASSIFIED',
            task_summary: 'I want to buy the RouterX-Pro mesh kit',
            customer_info: { user_id: 'cust-trace', name: 'Wile E. Coyote' },
          },
        },
      }),
    );
    await waitFor(async () => (await rig.outcomes(events, taskId)).find((event) => event.agent_id === 'router'), {
      description: "the router's outcome of the task",
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    const ofTask = () => receiver.spans.filter((span) => span.attributes['messaging.kafka.message.key'] === taskId);
    expect(ofTask()).toEqual([]);

    expect(await rig.services.router?.stop('SIGTERM')).toBe(0);
    const consumed = ofTask().filter((span) => span.name === `process ${topics.inbound}`);
    expect(consumed.map((span) => span.serviceName)).toEqual(['router']);
    const handled = receiver.spans.filter((span) => span.parentSpanId === consumed[0]?.spanId);
    expect(handled.map((span) => [span.name, span.attributes['baton.task_id']])).toEqual([
      ['handle TASK_TRANSFER', taskId],
    ]);
    expect(new Set(ofTask().map((span) => span.traceId)).size).toBe(1);
  });
});
