import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FailureTally } from '@baton/agent-registry';
import { buildHandoff } from '@baton/protocol';
import { createLogger } from '@baton/runtime';
import { MessageHandlerContext } from './message-handler-context.js';

function captured() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('agent', 'info', destination), lines };
}

const handoff = buildHandoff({
  metadata: { sender_id: 'triage', recipient_id: 'sales', task_id: 'task-7', correlation_id: 'flow-1' },
  payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS' } },
});

const NO_CARDS = { card: async () => undefined };

describe('MessageHandlerContext', () => {
  it("gives a logger whose lines carry the handoff's task, message and correlation ids, and the attempt", () => {
    const { logger, lines } = captured();
    const context = new MessageHandlerContext(logger, handoff, 2, NO_CARDS, new FailureTally());
    context.logger.info({ event: 'handled' }, 'handled');
    expect(context.attempt).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      event: 'handled',
      task_id: 'task-7',
      message_id: handoff.metadata.message_id,
      correlation_id: 'flow-1',
    });
  });

  it('makes the child logger once, on first use', () => {
    const { logger } = captured();
    let children = 0;
    const counting = Object.assign(Object.create(logger) as typeof logger, {
      child: (...args: Parameters<typeof logger.child>) => {
        children += 1;
        return logger.child(...args);
      },
    });
    const context = new MessageHandlerContext(counting, handoff, 1, NO_CARDS, new FailureTally());
    expect(children).toBe(0);
    expect(context.logger).toBe(context.logger);
    expect(children).toBe(1);
  });

  it('tells the tally of each failure the handler notes, for the heartbeats to carry', () => {
    const failures = new FailureTally();
    const context = new MessageHandlerContext(captured().logger, handoff, 1, NO_CARDS, failures);
    context.noteFailure('MODEL_UNAVAILABLE');
    context.noteFailure('MODEL_UNAVAILABLE');
    context.noteFailure('TOOL_FAILED');
    expect(failures.recent()?.counts).toEqual({ MODEL_UNAVAILABLE: 2, TOOL_FAILED: 1 });
  });
});
