/**
 * The task statuses, in their order (CREATE 0 ... FINISH 4), then the two ends a negotiated
 * handoff adds: FAILED (every option of the failure_handling_strategy
 * used up) and EXPIRED (expiration_time passed before a receiver took the task).
 */
export const TASK_STATUSES = ['CREATE', 'EXECUTING', 'WAITING', 'BREAK', 'FINISH', 'FAILED', 'EXPIRED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
