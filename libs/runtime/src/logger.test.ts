import { describe, expect, it } from 'vitest';
import { buildHandoff } from '@baton/protocol';
import { capturedLogger } from './captured-logger.test-helper.js';
import { REDACTED, messageLogger, redactLogLine, redactPersonalData } from './logger.js';

const CUSTOMER = { user_id: 'cust-42', name: 'Wile E. Coyote', contact_number: '+1-555-0100' };

const handoff = buildHandoff({
  metadata: { sender_id: 'triage_agent', recipient_id: 'sales_agent', task_id: 'task-1', correlation_id: 'flow-1' },
  payload: {
    handoff_type: 'TASK_TRANSFER',
    data: { issue_category: 'SALES', task_summary: 'Wants a mesh kit.', customer_info: CUSTOMER },
  },
});

const capture = () => capturedLogger();

async function flushed(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('redactPersonalData', () => {
  it('keeps only user_id of every customer_info, at any depth and in arrays', () => {
    const value = {
      customer_info: { ...CUSTOMER, email: 'wile@acme.example', phone: '555', address: '1 Mesa Rd' },
      handoff: { payload: { data: { customer_info: CUSTOMER } } },
      entry: { task: { list: [{ payload: { data: { customer_info: CUSTOMER } } }] } },
    };
    const redacted = redactPersonalData(value);
    expect(redacted.customer_info).toEqual({
      user_id: 'cust-42',
      name: REDACTED,
      contact_number: REDACTED,
      email: REDACTED,
      phone: REDACTED,
      address: REDACTED,
    });
    const expected = { user_id: 'cust-42', name: REDACTED, contact_number: REDACTED };
    expect(redacted.handoff.payload.data.customer_info).toEqual(expected);
    expect(redacted.entry.task.list[0]?.payload.data.customer_info).toEqual(expected);
    expect(JSON.stringify(redacted)).not.toMatch(/Coyote|555|acme|Mesa/);
  });

  it('never changes its input, shares what holds no customer data, and handles odd shapes', () => {
    const frozen = Object.freeze({ a: Object.freeze({ b: 1 }), c: Object.freeze({ customer_info: CUSTOMER }) });
    const redacted = redactPersonalData(frozen);
    expect(frozen.c.customer_info.name).toBe('Wile E. Coyote');
    expect(redacted.a).toBe(frozen.a);
    expect(redactPersonalData({ customer_info: 'Wile, +1-555-0100' })).toEqual({ customer_info: REDACTED });
    expect(redactPersonalData({ customer_info: null })).toEqual({ customer_info: null });
    const cyclic: Record<string, unknown> = { customer_info: CUSTOMER };
    cyclic.self = cyclic;
    expect(() => redactPersonalData(cyclic)).not.toThrow();
  });
});

describe('redactLogLine', () => {
  it('leaves a line without customer_info as it is and withholds one it cannot parse', () => {
    const plain = '{"level":"info","msg":"hello"}\n';
    expect(redactLogLine(plain)).toBe(plain);
    expect(redactLogLine('{"customer_info":{"name":"Wile"}}\n')).toBe(`{"customer_info":{"name":"${REDACTED}"}}\n`);
    const broken = redactLogLine('{"customer_info":{"name":"Wile"\n');
    expect(broken).not.toContain('Wile');
    expect(broken.endsWith('\n')).toBe(true);
  });
});

describe('createLogger', () => {
  it('redacts a handoff logged whole, as a field, nested, or in child bindings', async () => {
    const { logger, lines } = capture();
    logger.info(handoff, 'the message itself');
    logger.info({ handoff }, 'as a field');
    logger.warn({ entry: { task: { handoff } } }, 'nested');
    logger.child({ handoff }).info('child bindings');
    messageLogger(logger, handoff).info({ customer_info: CUSTOMER }, 'message logger');
    logger.error({ err: Object.assign(new Error('refused'), { details: { customer_info: CUSTOMER } }) }, 'error');
    await flushed();
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      const text = JSON.stringify(line);
      expect(text).not.toContain('Wile E. Coyote');
      expect(text).not.toContain('+1-555-0100');
      expect(text).toContain('cust-42');
      expect(text).toContain(REDACTED);
    }
    // Nothing else was dropped on the way.
    expect(lines[1]).toMatchObject({
      service: 'test',
      msg: 'as a field',
      handoff: { metadata: { task_id: 'task-1' } },
    });
  });

  it('puts task_id, message_id and correlation_id on every line of a message logger', async () => {
    const { logger, lines } = capture();
    const log = messageLogger(logger, handoff);
    log.info({ event: 'a' }, 'one');
    log.debug('two');
    const uncorrelated = buildHandoff({
      metadata: { sender_id: 'a', recipient_id: 'b', task_id: 'task-1' },
      payload: { handoff_type: 'NOTIFICATION', data: { event_type: 'PING', message: 'hello' } },
    });
    messageLogger(logger, uncorrelated).info('three');
    await flushed();
    const ids = { task_id: 'task-1', message_id: handoff.metadata.message_id, correlation_id: 'flow-1' };
    expect(lines[0]).toMatchObject(ids);
    expect(lines[1]).toMatchObject(ids);
    expect(lines[2]).toMatchObject({ task_id: 'task-1', correlation_id: null });
  });
});
