import type { HandoffDataByType, HandoffPayload } from '../handoff/handoff-data.js';
import type {
  HandoffContext,
  HandoffInstructions,
  HandoffMessage,
  HandoffMetadata,
  Immutable,
} from '../handoff/handoff-message.js';
import type { HandoffType } from '../handoff/handoff-type.js';
import { PROTOCOL_VERSION } from '../handoff/protocol-version.js';
import { parseHandoff } from '../validation/validate-handoff.js';
import { randomId } from './random-id.js';

/** Where builders take identity and time from; tests pass fixed ones. */
export interface BuildOptions {
  newId?: () => string;
  now?: () => Date;
}

/** What a sender states; the builder fills the rest. */
export interface HandoffDraft<T extends HandoffType = HandoffType> {
  metadata: Omit<HandoffMetadata, 'message_id' | 'timestamp' | 'protocol_version' | 'priority'> &
    Partial<Pick<HandoffMetadata, 'message_id' | 'timestamp' | 'protocol_version' | 'priority'>>;
  context?: Partial<HandoffContext>;
  payload: { handoff_type: T; data: HandoffDataByType[T] };
  instructions?: HandoffInstructions;
}

/** The workflow_state of a task's first handoff when the sender names none. */
export const INITIAL_WORKFLOW_STATE = 'INITIAL_REQUEST';

/** ISO 8601 in UTC with milliseconds, the timestamp form the protocol prescribes. */
export function isoTimestamp(date: Date): string {
  return date.toISOString();
}

/**
 * Builds a complete, validated, immutable handoff message: message_id (UUID v4), timestamp,
 * protocol_version and priority MEDIUM are filled when absent; context and instructions default
 * to empty. Throws HandoffValidationError when the result breaks the schemas.
 */
export function buildHandoff<T extends HandoffType>(
  draft: HandoffDraft<T>,
  options: BuildOptions = {},
): Immutable<HandoffMessage> {
  const newId = options.newId ?? randomId;
  const now = options.now ?? (() => new Date());
  const message: HandoffMessage = {
    metadata: {
      ...draft.metadata,
      message_id: draft.metadata.message_id ?? newId(),
      timestamp: draft.metadata.timestamp ?? isoTimestamp(now()),
      protocol_version: draft.metadata.protocol_version ?? PROTOCOL_VERSION,
      priority: draft.metadata.priority ?? 'MEDIUM',
    },
    context: {
      ...draft.context,
      workflow_state: draft.context?.workflow_state ?? INITIAL_WORKFLOW_STATE,
      previous_actions: draft.context?.previous_actions ?? [],
    },
    payload: draft.payload as HandoffPayload,
    instructions: draft.instructions ?? {},
  };
  return parseHandoff(message);
}
