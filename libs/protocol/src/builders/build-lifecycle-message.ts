import type { Immutable } from '../handoff/handoff-message.js';
import { PROTOCOL_VERSION } from '../handoff/protocol-version.js';
import type { LifecycleMessage, LifecycleMessageType, LifecyclePayloadByType } from '../lifecycle/lifecycle-message.js';
import { parseLifecycleMessage } from '../validation/validate-lifecycle.js';
import { isoTimestamp, type BuildOptions } from './build-handoff.js';
import { randomId } from './random-id.js';

export interface LifecycleDraft<T extends LifecycleMessageType> {
  sender_id: string;
  receiver_id: string;
  task_id?: string;
  correlation_id?: string;
  signature?: string;
  payload: LifecyclePayloadByType[T];
}

/**
 * Builds a validated, immutable lifecycle message of a negotiated handoff with message_id (UUID v4), timestamp
 * and protocol_version filled. Throws HandoffValidationError when the result breaks the schemas,
 * e.g. a reply without correlation_id or a payload copy that differs from the envelope.
 */
export function buildLifecycleMessage<T extends LifecycleMessageType>(
  messageType: T,
  draft: LifecycleDraft<T>,
  options: BuildOptions = {},
): Immutable<LifecycleMessage<T>> {
  const message = {
    ...draft,
    message_id: (options.newId ?? randomId)(),
    timestamp: isoTimestamp((options.now ?? (() => new Date()))()),
    protocol_version: PROTOCOL_VERSION,
    message_type: messageType,
  };
  // parseLifecycleMessage copies before freezing, so the caller's draft is never frozen or shared.
  return parseLifecycleMessage(message) as Immutable<LifecycleMessage<T>>;
}
