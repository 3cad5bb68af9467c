import type { MaybePromise } from '@baton/errors';
import { encodedHeaderStrings, type OutputRecord } from '@baton/kafka';
import { BATON, withCreateSpans, withSpan, type Attributes } from '@baton/telemetry';
import type { Handoff } from './handoff.js';
import { issueCategoryOf } from './handoff-labels.js';

/** Every header an output will be written with: its encoded block's, then its own, which replace them. */
function outputHeaders(output: OutputRecord): Readonly<Record<string, string>> {
  if (output.encodedHeaders === undefined) return output.headers ?? {};
  return { ...encodedHeaderStrings(output.encodedHeaders), ...output.headers };
}

/** The handoff a span is about, as Baton's span attributes. */
export function handoffSpanAttributes(message: Handoff, agentId: string | undefined): Attributes {
  const { metadata, payload } = message;
  const attributes: Attributes = {
    [BATON.taskId]: metadata.task_id,
    [BATON.messageId]: metadata.message_id,
    [BATON.handoffType]: payload.handoff_type,
    [BATON.senderId]: metadata.sender_id,
    [BATON.recipientId]:
      typeof metadata.recipient_id === 'string' ? metadata.recipient_id : metadata.recipient_id.join(','),
  };
  if (agentId !== undefined) attributes[BATON.agentId] = agentId;
  if (metadata.correlation_id !== undefined) attributes[BATON.correlationId] = metadata.correlation_id;
  const issueCategory = issueCategoryOf(message);
  if (issueCategory !== undefined) attributes[BATON.issueCategory] = issueCategory;
  return attributes;
}

/**
 * Runs a handler in the INTERNAL span `handle <handoff_type>`, the active context while it runs (a
 * model or tool call's span is its child), and gives each record it returns a `create` span of its
 * own whose context becomes the record's `traceparent`: the next service continues from there.
 */
export function tracedHandle(
  message: Handoff,
  agentId: string | undefined,
  handle: () => MaybePromise<OutputRecord[]>,
): Promise<OutputRecord[]> {
  return withSpan(
    `handle ${message.payload.handoff_type}`,
    { attributes: handoffSpanAttributes(message, agentId) },
    async () => withCreateSpans(await handle(), outputHeaders),
  );
}
