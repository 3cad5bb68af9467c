import { parsedCopy, type ParseOptions } from '../validation/parsed-copy.js';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { Immutable } from '../handoff/handoff-message.js';
import { collectIssues } from '../validation/ajv-issues.js';
import { createAjv } from '../validation/create-ajv.js';

export const HANDOFF_OUTCOMES = [
  'ROUTED',
  'PROCESSED',
  'HANDED_OFF',
  'HANDOFF_REQUESTED',
  'COMPLETED',
  'REPLIED',
  'INFORMATION_REQUESTED',
  'ESCALATED',
  'DEAD_LETTERED',
  'NOT_DELIVERED',
] as const;

export type HandoffOutcomeKind = (typeof HANDOFF_OUTCOMES)[number];

/**
 * The agent_id of the router's outcome events: the one writer that gives a task to an agent
 * (ROUTED), which the readers of the events topic check every other agent's events against.
 */
export const ROUTER_AGENT_ID = 'router';

/** What became of one handoff at one service; published on the events topic keyed by task_id. */
export interface HandoffOutcome {
  event_id: string;
  time: string;
  task_id: string;
  /** The handoff this event is about. */
  message_id: string;
  correlation_id?: string;
  /** The service that finished with the handoff. */
  agent_id: string;
  handoff_type: string;
  /** The handoff's sender_id and recipient_id (several recipients comma-separated). */
  sender_id?: string;
  recipient_id?: string;
  issue_category?: string;
  outcome: HandoffOutcomeKind;
  /** Where the handoff went on: agent ids, comma-separated. */
  target?: string;
  detail?: string;
  error_code?: string;
  /** The handoff's metadata.parent_task_ids: a subtask's events name the task it was split from. */
  parent_task_ids?: readonly string[];
  /** The handoff's context.workflow_state, e.g. ROUND_2_REVIEW. */
  workflow_state?: string;
  /** The handoff's metadata.expiration_time. */
  expiration_time?: string;
  /**
   * `ed25519:<key id>:<signature>` by a key that signs for agent_id; absent when the writer sealed
   * the event for its readers instead, in the record's `baton.seal` header (@baton/message-signing).
   */
  signature?: string;
}

const require = createRequire(import.meta.url);
let validate: ValidateFunction | undefined;

/** The outcome event's validator, compiled at the first call. */
export function handoffOutcomeValidator(): ValidateFunction {
  return (validate ??= createAjv().compile(
    require('@baton/schemas/json/events/handoff_outcome.schema.json') as object,
  ));
}

/** Checks a decoded outcome event and returns it frozen (see ParseOptions); throws HandoffValidationError. */
export function parseHandoffOutcome(value: unknown, options?: ParseOptions): Immutable<HandoffOutcome> {
  const check = handoffOutcomeValidator();
  return parsedCopy<HandoffOutcome>(value, (copy) => collectIssues(check, copy, ''), options);
}
