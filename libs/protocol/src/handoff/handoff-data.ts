import type { HandoffType, Priority } from './handoff-type.js';

/** A JSON object whose shape the protocol leaves open. */
export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

export interface CustomerInfo {
  user_id: string;
  name: string;
  contact_number?: string;
}

export interface EscalationData {
  issue_category: string;
  severity: Priority;
  customer_info: CustomerInfo;
  technical_details: {
    router_model?: string;
    isp?: string;
    symptoms?: string;
    logs_attached?: boolean;
    log_references?: string[];
    [extra: string]: JsonValue | undefined;
  };
}

export interface RequestInformationData {
  requested_info_keys: string[];
  query_parameters?: JsonObject;
}

export interface TaskTransferData {
  issue_category: string;
  task_summary: string;
  transfer_reason?: string;
  desired_agent_type?: string;
  customer_info?: CustomerInfo;
  attributes?: JsonObject;
}

export interface ProvideInformationData {
  in_reply_to?: string;
  provided_info: JsonObject;
  missing_info_keys?: string[];
  source?: string;
}

export interface NotificationData {
  event_type: string;
  message: string;
  severity?: 'INFO' | 'WARNING' | 'CRITICAL';
  issue_category?: string;
  details?: JsonObject;
}

export type TaskProgressStatus = 'IN_PROGRESS' | 'WAITING_FOR_INPUT' | 'COMPLETED' | 'FAILED';

export interface StatusUpdateData {
  status: TaskProgressStatus;
  details?: string;
  progress_percent?: number;
  issue_category?: string;
}

export interface ApprovalRequestData {
  action: string;
  justification: string;
  issue_category?: string;
  subject_id?: string;
  amount?: { value: number; currency: string };
  approver_role?: string;
  decision_deadline?: string;
  customer_info?: CustomerInfo;
}

/**
 * `payload.data`'s type for each handoff type, mirroring schemas/json/data/<type>_data.schema.json
 * field for field (a schema and its interface change together). These static types are honest
 * because validation enforces them at run time: every handoff a service reads is decoded through
 * parseHandoff (the handoff codec, the inbox claim check), which checks `payload.data` against the
 * schema of its own handoff_type and refuses the message otherwise, so the `data` a handler gets
 * has the shape its type names. A message of a newer minor version may carry extra fields, which
 * these types do not name; they are kept, and never read.
 */
export interface HandoffDataByType {
  TASK_TRANSFER: TaskTransferData;
  REQUEST_INFORMATION: RequestInformationData;
  PROVIDE_INFORMATION: ProvideInformationData;
  ESCALATION: EscalationData;
  NOTIFICATION: NotificationData;
  STATUS_UPDATE: StatusUpdateData;
  APPROVAL_REQUEST: ApprovalRequestData;
}

/**
 * The payload of a handoff of type `T`: one member per type, each pairing `handoff_type` with its
 * data, so for a union of types a check of `handoff_type` narrows `data`.
 */
export type HandoffPayloadOf<T extends HandoffType> = {
  [K in T]: { handoff_type: K; data: HandoffDataByType[K] };
}[T];

/** A payload of any type, discriminated by `handoff_type`: a switch on it narrows `data`. */
export type HandoffPayload = HandoffPayloadOf<HandoffType>;
