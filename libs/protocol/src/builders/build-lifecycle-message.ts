import { randomUUID } from 'node:crypto';
import type { Immutable } from '../handoff/handoff-message.js';
import { PROTOCOL_VERSION } from '../handoff/protocol-version.js';
import type { LifecycleMessage, LifecycleMessageType, LifecyclePayloadByType } from '../lifecycle/lifecycle-message.js';
import { deepFreeze } from './deep-freeze.js';
import { isoTimestamp, type BuildOptions } from './build-handoff.js';

export interface LifecycleDraft<T extends LifecycleMessageType> {
  sender_id: string;
  receiver_id: string;
  task_id?: string;
  correlation_id?: string;
  signature?: string;
  payload: LifecyclePayloadByType[T];
}

/** Builds an immutable lifecycle message of seed 001 with message_id, timestamp and version filled. */
export function buildLifecycleMessage<T extends LifecycleMessageType>(
  messageType: T,
  draft: LifecycleDraft<T>,
  options: BuildOptions = {},
): Immutable<LifecycleMessage<T>> {
  const message = {
    ...structuredClone(draft),
    message_id: (options.newId ?? randomUUID)(),
    timestamp: isoTimestamp((options.now ?? (() => new Date()))()),
    protocol_version: PROTOCOL_VERSION,
    message_type: messageType,
  } as LifecycleMessage<T>;
  return deepFreeze(message);
}
