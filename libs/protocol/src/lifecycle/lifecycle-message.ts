import type { JsonObject } from '../handoff/handoff-data.js';
import type { Priority } from '../handoff/handoff-type.js';

/** The message types of seed 001's negotiated handoff ("control transfer"). */
export const LIFECYCLE_MESSAGE_TYPES = [
  'HandoffRequest',
  'HandoffAccept',
  'HandoffReject',
  'TaskContextTransfer',
  'HandoffComplete',
  'TaskStatusUpdate',
  'ErrorNotification',
  'Heartbeat',
] as const;

export type LifecycleMessageType = (typeof LIFECYCLE_MESSAGE_TYPES)[number];

export interface HandoffRequestPayload {
  task_id: string;
  /** Why the sender hands over: lacking skill, out of scope, seeking expertise, load balancing. */
  reason: string;
  /** The kind of agent wanted, e.g. TechnicalSupportAgent or HumanAgent. */
  desired_agent_type: string;
  priority: Priority;
  initial_context_summary: string;
}

export interface HandoffAcceptPayload {
  task_id: string;
  /** message_id of the HandoffRequest. */
  correlation_id: string;
  /** Seconds the receiver expects the handoff to take. */
  estimated_handoff_time: number;
}

export interface HandoffRejectPayload {
  task_id: string;
  correlation_id: string;
  /** Capability mismatch, overloaded, not authorised. */
  reason: string;
  alternative_agent_suggestions?: string[];
}

/** Seed 001's context_data: everything the receiver needs to take the task over. */
export interface TaskContextData {
  task_description?: string;
  current_status?: string;
  progress_report?: JsonObject[] | string;
  collected_data?: JsonObject;
  history_log?: JsonObject[];
  decision_path?: JsonObject[];
  goals?: string[];
  resources?: JsonObject;
  session_variables?: JsonObject;
  [extra: string]: unknown;
}

export interface TaskContextTransferPayload {
  task_id: string;
  correlation_id: string;
  context_data: TaskContextData;
}

export interface HandoffCompletePayload {
  task_id: string;
  correlation_id: string;
  handoff_status: 'SUCCESS' | 'FAILURE';
}

export interface TaskStatusUpdatePayload {
  task_id: string;
  status: 'IN_PROGRESS' | 'WAITING_FOR_INPUT' | 'COMPLETED' | 'FAILED';
  details: string;
}

export interface ErrorNotificationPayload {
  task_id?: string;
  error_code: string;
  error_message: string;
  severity: 'CRITICAL' | 'WARNING' | 'INFO';
  origin_agent_id: string;
}

export interface HeartbeatPayload {
  agent_id: string;
  status: 'ALIVE' | 'HEALTHY' | 'DEGRADED';
  load_metrics?: Record<string, number>;
}

export interface LifecyclePayloadByType {
  HandoffRequest: HandoffRequestPayload;
  HandoffAccept: HandoffAcceptPayload;
  HandoffReject: HandoffRejectPayload;
  TaskContextTransfer: TaskContextTransferPayload;
  HandoffComplete: HandoffCompletePayload;
  TaskStatusUpdate: TaskStatusUpdatePayload;
  ErrorNotification: ErrorNotificationPayload;
  Heartbeat: HeartbeatPayload;
}

/** Seed 001's common message structure, with the payload that `message_type` implies. */
export type LifecycleMessage<T extends LifecycleMessageType = LifecycleMessageType> = {
  [K in T]: {
    message_id: string;
    sender_id: string;
    /** An agent id, an agent type, or a broadcast address. */
    receiver_id: string;
    timestamp: string;
    protocol_version: string;
    message_type: K;
    /** For replies: the message_id of the HandoffRequest they answer. */
    correlation_id?: string;
    task_id?: string;
    payload: LifecyclePayloadByType[K];
    /** Digital signature over the message, for sender authentication and integrity. */
    signature?: string;
  };
}[T];

export type HandoffRequest = LifecycleMessage<'HandoffRequest'>;
export type HandoffAccept = LifecycleMessage<'HandoffAccept'>;
export type HandoffReject = LifecycleMessage<'HandoffReject'>;
export type TaskContextTransfer = LifecycleMessage<'TaskContextTransfer'>;
export type HandoffComplete = LifecycleMessage<'HandoffComplete'>;
export type TaskStatusUpdate = LifecycleMessage<'TaskStatusUpdate'>;
export type ErrorNotification = LifecycleMessage<'ErrorNotification'>;
export type Heartbeat = LifecycleMessage<'Heartbeat'>;
