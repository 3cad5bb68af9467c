import type { JsonObject } from '../handoff/handoff-data.js';
import type { Priority } from '../handoff/handoff-type.js';

/** The message types of the negotiated handoff ("control transfer"). */
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

/**
 * The protocol lists task_id (and, in replies, correlation_id) inside each payload, while senders
 * often put them in the envelope only. The envelope's are required and authoritative; a payload
 * may repeat them, and validation refuses a copy that differs (FIELD_MISMATCH).
 */
interface EnvelopeCopies {
  /** Copy of the envelope's task_id. */
  task_id?: string;
}

interface ReplyCopies extends EnvelopeCopies {
  /** Copy of the envelope's correlation_id: the message_id of the HandoffRequest. */
  correlation_id?: string;
}

export interface HandoffRequestPayload extends EnvelopeCopies {
  /** Why the sender hands over: lacking skill, out of scope, seeking expertise, load balancing. */
  reason: string;
  /** The kind of agent wanted, e.g. TechnicalSupportAgent or HumanAgent. */
  desired_agent_type: string;
  priority: Priority;
  initial_context_summary: string;
}

export interface HandoffAcceptPayload extends ReplyCopies {
  /** Seconds the receiver expects the handoff to take. */
  estimated_handoff_time: number;
}

export interface HandoffRejectPayload extends ReplyCopies {
  /** Capability mismatch, overloaded, not authorised. */
  reason: string;
  alternative_agent_suggestions?: string[];
}

/** The context_data of a TaskContextTransfer: everything the receiver needs to take the task over. */
export interface TaskContextData {
  /** Version of the task's context structure, as the protocol recommends. */
  schema_version?: string;
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

/** Where a context sent by reference is stored, and how to check what is fetched from there. */
export interface ContextRef {
  /** s3://..., https://... */
  uri: string;
  /** SHA-256 of the stored bytes, lowercase hex. */
  sha256: string;
  size_bytes: number;
  /** Media type of the stored bytes, e.g. application/json. */
  content_type: string;
}

/** The context travels by value (context_data) or by reference (context_ref): exactly one of the two. */
export type TaskContextTransferPayload = ReplyCopies &
  ({ context_data: TaskContextData; context_ref?: never } | { context_ref: ContextRef; context_data?: never });

export interface HandoffCompletePayload extends ReplyCopies {
  handoff_status: 'SUCCESS' | 'FAILURE';
}

export interface TaskStatusUpdatePayload extends EnvelopeCopies {
  status: 'IN_PROGRESS' | 'WAITING_FOR_INPUT' | 'COMPLETED' | 'FAILED';
  details: string;
}

export interface ErrorNotificationPayload extends EnvelopeCopies {
  error_code: string;
  error_message: string;
  severity: 'CRITICAL' | 'WARNING' | 'INFO';
  origin_agent_id: string;
}

export interface HeartbeatPayload {
  /** The sending agent: equals the envelope's sender_id. */
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

/** The lifecycle messages' common structure, with the payload that `message_type` implies. */
export type LifecycleMessage<T extends LifecycleMessageType = LifecycleMessageType> = {
  [K in T]: {
    message_id: string;
    sender_id: string;
    /** An agent id, an agent type, or a broadcast address. */
    receiver_id: string;
    timestamp: string;
    protocol_version: string;
    message_type: K;
    /** For replies (required there): the message_id of the HandoffRequest they answer. */
    correlation_id?: string;
    /** The Kafka record key; required for every message about one task. */
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
