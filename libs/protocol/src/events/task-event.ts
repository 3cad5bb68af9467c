import type { Immutable } from '../handoff/handoff-message.js';
import type { LifecycleMessage } from '../lifecycle/lifecycle-message.js';
import type { StagedContext } from '../lifecycle/staged-context.js';
import type { HandoffOutcome } from './handoff-outcome.js';

/**
 * One record of the events topic, by what it holds: what became of a handoff at a service, a
 * lifecycle message of a negotiated handoff, or the context a negotiation offers.
 */
export type TaskEvent =
  | { kind: 'outcome'; value: Immutable<HandoffOutcome> }
  | { kind: 'lifecycle'; value: Immutable<LifecycleMessage> }
  | { kind: 'staged'; value: Immutable<StagedContext> };
