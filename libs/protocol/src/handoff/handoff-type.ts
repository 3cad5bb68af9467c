/** The seven handoff types of the protocol; each has its own `payload.data` schema. */
export const HANDOFF_TYPES = [
  'TASK_TRANSFER',
  'REQUEST_INFORMATION',
  'PROVIDE_INFORMATION',
  'ESCALATION',
  'NOTIFICATION',
  'STATUS_UPDATE',
  'APPROVAL_REQUEST',
] as const;

export type HandoffType = (typeof HANDOFF_TYPES)[number];

export function isHandoffType(value: unknown): value is HandoffType {
  return typeof value === 'string' && (HANDOFF_TYPES as readonly string[]).includes(value);
}

export const PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;

export type Priority = (typeof PRIORITIES)[number];
