import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  buildHandoff,
  type EscalationData,
  type HandoffOf,
  type Immutable,
  type ProvideInformationData,
  type TaskTransferData,
} from '@baton/protocol';
import type { Handoff } from '@baton/runtime';
import { defineAgent, handlerFor, type AgentHandler } from './agent-definition.js';

const metadata = { sender_id: 'triage_agent', recipient_id: 'sales_agent', task_id: 'task-1' };
const transfer = buildHandoff({
  metadata,
  payload: { handoff_type: 'TASK_TRANSFER', data: { issue_category: 'SALES', task_summary: 'A mesh kit.' } },
});
const notification = buildHandoff({
  metadata,
  payload: { handoff_type: 'NOTIFICATION', data: { event_type: 'PING', message: 'hello' } },
});

// The checks in expectTypeOf and @ts-expect-error are made by the typecheck (tsc), not at run time.
describe('handlers typed by their handoff_type', () => {
  it('gives each handler the data of its key', () => {
    defineAgent({
      id: 'typed_agent',
      handlers: {
        TASK_TRANSFER(handoff) {
          expectTypeOf(handoff).toEqualTypeOf<HandoffOf<'TASK_TRANSFER'>>();
          expectTypeOf(handoff.payload.handoff_type).toEqualTypeOf<'TASK_TRANSFER'>();
          expectTypeOf(handoff.payload.data).toEqualTypeOf<Immutable<TaskTransferData>>();
        },
        ESCALATION(handoff) {
          expectTypeOf(handoff.payload.data).toEqualTypeOf<Immutable<EscalationData>>();
        },
      },
    });
  });

  it('refuses a handler of another type under a key', () => {
    const escalate: AgentHandler<'ESCALATION'> = () => undefined;
    // @ts-expect-error an ESCALATION handler would be given TASK_TRANSFER handoffs
    defineAgent({ id: 'wrong_agent', handlers: { TASK_TRANSFER: escalate } });
    defineAgent({ id: 'right_agent', handlers: { ESCALATION: escalate } });
    expectTypeOf<AgentHandler<'ESCALATION'>>().not.toMatchTypeOf<AgentHandler<'TASK_TRANSFER'>>();
  });

  it('takes one handler for several keys when it is typed with their union', () => {
    const either: AgentHandler<'TASK_TRANSFER' | 'PROVIDE_INFORMATION'> = (handoff) => {
      // A check of handoff_type narrows the data.
      if (handoff.payload.handoff_type === 'PROVIDE_INFORMATION') {
        expectTypeOf(handoff.payload.data).toEqualTypeOf<Immutable<ProvideInformationData>>();
      } else {
        expectTypeOf(handoff.payload.data).toEqualTypeOf<Immutable<TaskTransferData>>();
      }
    };
    defineAgent({ id: 'both_agent', handlers: { TASK_TRANSFER: either, PROVIDE_INFORMATION: either } });
    // @ts-expect-error it does not take ESCALATION handoffs
    defineAgent({ id: 'wrong_agent', handlers: { ESCALATION: either } });
  });

  it('makes the runtime’s Handoff a handoff of any type', () => {
    expectTypeOf<HandoffOf>().toEqualTypeOf<Handoff>();
    expectTypeOf<HandoffOf<'TASK_TRANSFER'>>().toMatchTypeOf<Handoff>();
  });
});

describe('handlerFor', () => {
  it('finds the handler of the handoff’s own type, or none', async () => {
    const seen: string[] = [];
    const agent = defineAgent({
      id: 'typed_agent',
      handlers: {
        TASK_TRANSFER(handoff) {
          seen.push(handoff.payload.data.task_summary);
        },
      },
    });
    const handler = handlerFor(agent.handlers, transfer);
    await handler?.(transfer, undefined as never, undefined as never);
    expect(seen).toEqual(['A mesh kit.']);
    expect(handlerFor(agent.handlers, notification)).toBeUndefined();
  });
});
