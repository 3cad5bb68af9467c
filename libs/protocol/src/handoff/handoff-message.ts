import type { HandoffPayloadOf, JsonObject, JsonValue } from './handoff-data.js';
import type { HandoffType, Priority } from './handoff-type.js';

export interface HandoffMetadata {
  /** UUID; the idempotency key: a message with a seen id takes effect once. */
  message_id: string;
  /** ISO 8601 date-time. */
  timestamp: string;
  /** MAJOR.MINOR.PATCH; readers accept their own major only. */
  protocol_version: string;
  sender_id: string;
  /** One agent (or pool), or several. */
  recipient_id: string | string[];
  correlation_id?: string;
  task_id: string;
  priority: Priority;
  /** ISO 8601 date-time after which the message must not be processed. */
  expiration_time?: string;
  /** Sender's signature over the message; verification is the receiver's policy. */
  signature?: string;
  /**
   * The tasks this message's task was split from (a planner's subtasks name their
   * parent). A child task has its own task_id; absent on a task without a parent.
   */
  parent_task_ids?: string[];
}

export interface PreviousAction {
  action_type: string;
  details: string;
  timestamp: string;
  [extra: string]: JsonValue | undefined;
}

export interface UserInteraction {
  type: string;
  sender: string;
  content: string;
  timestamp: string;
  [extra: string]: JsonValue | undefined;
}

export interface HandoffContext {
  workflow_state: string;
  previous_actions: PreviousAction[];
  historical_data_summary?: string;
  user_interaction_history?: UserInteraction[];
}

export interface FailureHandlingStrategy {
  retry_count?: number;
  escalate_to?: string;
  fallback_action?: string;
}

export interface HandoffInstructions {
  next_steps_suggestion?: string;
  required_actions?: string[];
  /** Open object; `time_limit` (ISO 8601 duration) is the one Baton reads. */
  constraints?: JsonObject;
  success_criteria?: string;
  failure_handling_strategy?: FailureHandlingStrategy;
}

/** The standard handoff message: metadata, context, payload, instructions. */
export interface HandoffMessage<T extends HandoffType = HandoffType> {
  metadata: HandoffMetadata;
  context: HandoffContext;
  /** For a union of types `T`, a union of payloads: a check of `payload.handoff_type` narrows `payload.data`. */
  payload: HandoffPayloadOf<T>;
  instructions: HandoffInstructions;
}

/** Deeply read-only view: what builders and parsers hand out, since a built message never changes. */
export type Immutable<T> = T extends (infer U)[]
  ? readonly Immutable<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Immutable<T[K]> }
    : T;

/**
 * A decoded handoff of type `T` (or of any type in the union `T`) as a handler reads it: validated,
 * so `payload.data` has the shape of `HandoffDataByType[T]` (see there), and read-only. `HandoffOf`
 * alone, of any type, is the runtime's `Handoff`.
 */
export type HandoffOf<T extends HandoffType = HandoffType> = Immutable<HandoffMessage<T>>;
