import type { Immutable } from '../handoff/handoff-message.js';
import type { TaskContextTransfer } from './lifecycle-message.js';

/** How a TaskContextTransfer carries its context: in the message, or stored elsewhere and named. */
export type ContextTransferMode = 'by-value' | 'by-reference';

/**
 * Which of context_data or context_ref a valid TaskContextTransfer carries (validation guarantees
 * exactly one), so a receiver knows whether it must fetch the context before taking the task over.
 */
export function contextTransferMode(
  message: TaskContextTransfer | Immutable<TaskContextTransfer>,
): ContextTransferMode {
  return message.payload.context_ref === undefined ? 'by-value' : 'by-reference';
}
