import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordModelResponse, withModelCall, withToolCall } from './gen-ai-spans.js';
import { runInSpan, startConsumeSpan, withCreateSpans } from './messaging-spans.js';
import { withSpan } from './with-span.js';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PRODUCER_SPAN = '00f067aa0ba902b7';

beforeAll(() => provider.register());
afterAll(() => provider.shutdown());
beforeEach(() => exporter.reset());

function named(name: string): ReadableSpan {
  const span = exporter.getFinishedSpans().find((finished) => finished.name === name);
  if (span === undefined) throw new Error(`no span ${name}`);
  return span;
}

describe('a consumed record', () => {
  it('is processed in a CONSUMER span that continues the traceparent, with the messaging attributes', async () => {
    const span = startConsumeSpan(
      {
        topic: 'baton.inbound',
        partition: 2,
        offset: '41',
        key: 'task-1',
        value: Buffer.from('abc'),
        headers: { traceparent: `00-${TRACE_ID}-${PRODUCER_SPAN}-01`, ce_id: 'm-1', ce_type: 'TASK_TRANSFER' },
      },
      'baton.router',
    );
    await runInSpan(span, () => withSpan('handle TASK_TRANSFER', {}, () => undefined));
    span.end();
    const consume = named('process baton.inbound');
    expect(consume.kind).toBe(SpanKind.CONSUMER);
    expect(consume.spanContext().traceId).toBe(TRACE_ID);
    expect(consume.parentSpanContext?.spanId).toBe(PRODUCER_SPAN);
    expect(consume.attributes).toEqual({
      'messaging.system': 'kafka',
      'messaging.destination.name': 'baton.inbound',
      'messaging.operation.type': 'process',
      'messaging.operation.name': 'process',
      'messaging.kafka.message.key': 'task-1',
      'messaging.destination.partition.id': '2',
      'messaging.kafka.offset': 41,
      'messaging.consumer.group.name': 'baton.router',
      'messaging.message.body.size': 3,
      'cloudevents.event_id': 'm-1',
      'cloudevents.event_type': 'TASK_TRANSFER',
    });
    expect(named('handle TASK_TRANSFER').parentSpanContext?.spanId).toBe(consume.spanContext().spanId);
  });
});

describe('records to write', () => {
  it('each get a PRODUCER create span, child of the active one, and its context as their traceparent', async () => {
    const records = [
      { topic: 'baton.agent.sales', key: 'task-1', value: 'v', headers: { ce_id: 'm-2', traceparent: 'old' } },
      { topic: 'baton.events', key: 'task-1', value: 'e' },
    ];
    const written = await withSpan('handle', {}, () => withCreateSpans(records));
    const handle = named('handle');
    const creates = exporter.getFinishedSpans().filter((span) => span.name.startsWith('create '));
    expect(creates.map((span) => span.name)).toEqual(['create baton.agent.sales', 'create baton.events']);
    creates.forEach((span, index) => {
      const { traceId, spanId } = span.spanContext();
      expect(span.kind).toBe(SpanKind.PRODUCER);
      expect(span.parentSpanContext?.spanId).toBe(handle.spanContext().spanId);
      expect(written[index]?.headers?.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    });
    expect(creates[0]?.attributes).toMatchObject({
      'messaging.operation.type': 'create',
      'messaging.destination.name': 'baton.agent.sales',
      'messaging.message.id': 'm-2',
    });
    expect(written[0]).toMatchObject({ topic: 'baton.agent.sales', key: 'task-1', value: 'v' });
    expect(records[0]?.headers?.traceparent).toBe('old');
  });
});

describe('records whose headers are partly elsewhere', () => {
  it("take their create span's attributes from the headers headersOf gives", async () => {
    const record = { topic: 'baton.events', key: 'task-1', value: 'e', headers: { ce_type: 'baton.outcome.ROUTED' } };
    const written = await withSpan('handle', {}, () =>
      withCreateSpans([record], (each) => ({ ce_id: 'e-1', ce_source: 'router', ...each.headers })),
    );
    expect(named('create baton.events').attributes).toMatchObject({
      'messaging.message.id': 'e-1',
      'cloudevents.event_id': 'e-1',
      'cloudevents.event_source': 'router',
      'cloudevents.event_type': 'baton.outcome.ROUTED',
    });
    // The record itself gets only the traceparent: what headersOf gave was for the span.
    expect(Object.keys(written[0]?.headers ?? {})).toEqual(['ce_type', 'traceparent']);
  });
});

describe('withSpan', () => {
  it('is the active span while its function runs, and returns what it returns', async () => {
    const seen = await withSpan('outer', { attributes: { 'baton.task_id': 't' } }, (span) => {
      expect(trace.getActiveSpan()).toBe(span);
      return 42;
    });
    expect(seen).toBe(42);
    expect(named('outer')).toMatchObject({ kind: SpanKind.INTERNAL, attributes: { 'baton.task_id': 't' } });
  });

  it('records a throw as an exception event and an ERROR status, and rethrows it', async () => {
    await expect(
      withSpan('failing', {}, async () => {
        throw new Error('model unreachable');
      }),
    ).rejects.toThrow('model unreachable');
    const failing = named('failing');
    expect(failing.status).toEqual({ code: SpanStatusCode.ERROR, message: 'model unreachable' });
    expect(failing.events.map((event) => event.name)).toEqual(['exception']);
  });
});

describe('model and tool calls', () => {
  it('carry the GenAI attributes, token counts included', async () => {
    await withModelCall({ provider: 'openai', model: 'gpt-4o-mini' }, async (modelSpan) => {
      recordModelResponse(modelSpan, { inputTokens: 120, outputTokens: 7 }, 'gpt-4o-mini-2024-07-18');
      await withToolCall({ name: 'execute_refund', callId: 'call_1' }, () => 'refunded');
    });
    const model = named('chat gpt-4o-mini');
    expect(model.kind).toBe(SpanKind.CLIENT);
    expect(model.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
    });
    const tool = named('execute_tool execute_refund');
    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(tool.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'execute_refund',
      'gen_ai.tool.call.id': 'call_1',
    });
    expect(tool.parentSpanContext?.spanId).toBe(model.spanContext().spanId);
  });
});
