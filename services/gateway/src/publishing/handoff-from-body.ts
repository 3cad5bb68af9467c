import { buildHandoff, type HandoffDraft } from '@baton/protocol';
import type { Handoff } from '@baton/runtime';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The handoff a client sent, as the builder makes it: message_id, timestamp, protocol_version and
 * priority filled when left out, then validated (HandoffValidationError lists every issue). A body
 * that is no object is taken as an empty one, so the answer names each missing field.
 */
export function handoffFromBody(body: unknown): Handoff {
  const sent = isObject(body) ? body : {};
  return buildHandoff({ ...sent, metadata: isObject(sent.metadata) ? sent.metadata : {} } as unknown as HandoffDraft);
}
