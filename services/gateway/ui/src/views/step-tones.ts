import type { LifecycleStep } from '@baton/gateway-api';
import type { Tone } from '../dom.js';

const MESSAGE_TONES: Record<string, Tone> = {
  HandoffAccept: 'good',
  HandoffComplete: 'good',
  HandoffReject: 'warn',
  ErrorNotification: 'bad',
};

/**
 * How a lifecycle message of a negotiation reads, in the steps table and the flow diagram alike:
 * an accept or a completion good, a rejection a warning, an error notice or a completion that
 * failed bad, anything else neutral.
 */
export function messageTone(step: Pick<LifecycleStep, 'message_type' | 'detail'>): Tone {
  if (step.message_type === 'HandoffComplete' && step.detail === 'FAILURE') return 'bad';
  return MESSAGE_TONES[step.message_type] ?? 'info';
}
