import { describe, expect, it } from 'vitest';
import { cloudEventHeaders, readCloudEvent } from './cloudevents-headers.js';
import { deadLetterHeaders, readDeadLetterFacts } from './dead-letter-headers.js';
import { readHeaders, recordHeaderOf } from './record-headers.js';
import { childTraceparent, newTraceparent, traceIdOf } from './traceparent.js';

describe('CloudEvents binary-mode headers', () => {
  it('carries the routing facts as ce_ headers and reads them back', () => {
    const headers = cloudEventHeaders({
      id: 'a1b2c3d4-e5f6-7890-1234-567890abcdef',
      type: 'ESCALATION',
      source: 'customer_service_agent_001',
      subject: 'task-abc-456',
      time: '2023-10-27T10:30:00.123Z',
      correlationId: 'flow-xyz-123',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    expect(headers).toEqual({
      ce_specversion: '1.0',
      ce_id: 'a1b2c3d4-e5f6-7890-1234-567890abcdef',
      ce_type: 'ESCALATION',
      ce_source: 'customer_service_agent_001',
      ce_subject: 'task-abc-456',
      ce_time: '2023-10-27T10:30:00.123Z',
      'content-type': 'application/vnd.confluent.avro',
      correlation_id: 'flow-xyz-123',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    expect(readCloudEvent(headers)).toEqual({
      id: 'a1b2c3d4-e5f6-7890-1234-567890abcdef',
      type: 'ESCALATION',
      source: 'customer_service_agent_001',
      subject: 'task-abc-456',
      time: '2023-10-27T10:30:00.123Z',
      correlationId: 'flow-xyz-123',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    expect(readCloudEvent({ ce_id: 'x' })).toBeUndefined();
  });
});

describe('traceparent', () => {
  it('keeps the trace and changes the span for a child', () => {
    const parent = newTraceparent();
    expect(parent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const child = childTraceparent(parent);
    expect(traceIdOf(child)).toBe(traceIdOf(parent));
    expect(child).not.toBe(parent);
  });

  it('starts a new trace from a malformed parent', () => {
    expect(childTraceparent('garbage')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(childTraceparent(undefined)).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });
});

describe('dead-letter headers', () => {
  it('keeps the original headers and adds Kafka Connect and Baton facts', () => {
    const headers = deadLetterHeaders(
      { ce_id: 'm-1', ce_type: 'ESCALATION' },
      {
        topic: 'baton.handoffs.inbound',
        partition: 2,
        offset: '41',
        stage: 'route',
        errorCode: 'NO_ROUTE',
        errorClass: 'BatonError',
        errorMessage: 'no rule matches',
        retriable: false,
        attempts: 1,
        consumerGroup: 'baton.router',
        instanceId: 'router-1',
        time: '2026-11-21T10:00:00.000Z',
      },
    );
    expect(headers).toEqual({
      ce_id: 'm-1',
      ce_type: 'ESCALATION',
      '__connect.errors.topic': 'baton.handoffs.inbound',
      '__connect.errors.partition': '2',
      '__connect.errors.offset': '41',
      '__connect.errors.stage': 'route',
      '__connect.errors.class.name': 'BatonError',
      '__connect.errors.exception.message': 'no rule matches',
      '__connect.errors.connector.name': 'baton.router',
      '__connect.errors.task.id': 'router-1',
      'baton.dlq.error.code': 'NO_ROUTE',
      'baton.dlq.error.retriable': 'false',
      'baton.dlq.attempts': '1',
      'baton.dlq.consumer.group': 'baton.router',
      'baton.dlq.time': '2026-11-21T10:00:00.000Z',
    });
    expect(readDeadLetterFacts(headers)).toMatchObject({ errorCode: 'NO_ROUTE', partition: 2, attempts: 1 });
    expect(readDeadLetterFacts({ ce_id: 'm-1' })).toBeUndefined();
  });
});

describe('readHeaders', () => {
  it('turns buffers into strings and keeps the last of repeated values', () => {
    expect(readHeaders({ a: Buffer.from('x'), b: ['1', Buffer.from('2')], c: undefined })).toEqual({ a: 'x', b: '2' });
    expect(readHeaders(undefined)).toEqual({});
  });

  it("reads one header of a message whose headers are not a fetched record's, the last of repeated values", () => {
    const message = { headers: { a: Buffer.from('x'), b: ['1', Buffer.from('2')] } };
    expect([recordHeaderOf(message, 'a'), recordHeaderOf(message, 'b'), recordHeaderOf(message, 'c')]).toStrictEqual([
      'x',
      '2',
      undefined,
    ]);
  });

  it('takes a null value (Kafka allows one) for no value', () => {
    expect(readHeaders({ gone: null, kept: Buffer.from('1'), last: ['a', null] })).toStrictEqual({ kept: '1' });
  });
});
