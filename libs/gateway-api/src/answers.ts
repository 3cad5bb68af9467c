/** `POST /v1/handoffs`: the handoff is on every in-sync replica. */
export interface AcceptedHandoff {
  message_id: string;
  task_id: string;
  topic: string;
  partition: number;
  offset: string;
}

/**
 * `POST /v1/negotiations`: what opens a negotiated handoff. `handoff` is a handoff message as
 * `POST /v1/handoffs` takes it (the gateway fills message_id, timestamp, protocol_version and
 * priority), addressed to the one agent asked.
 */
export interface NegotiationRequest {
  handoff: Record<string, unknown>;
  desired_agent_type: string;
  reason: string;
}

/**
 * `POST /v1/negotiations`: the staged context and the HandoffRequest are on every in-sync replica,
 * written in one transaction; the tracker runs the sender's side from here.
 */
export interface AcceptedNegotiation {
  /** The HandoffRequest's message_id, as the task's `negotiations` name it. */
  negotiation_id: string;
  task_id: string;
  /** The agent asked. */
  receiver: string;
  /** How the context travels: in the messages, or stored in the contexts topic and named by reference. */
  context_mode: 'by-value' | 'by-reference';
}

/**
 * The task statuses (CREATE ... FINISH), then the two ends a negotiated handoff adds: FAILED
 * (every option of the failure_handling_strategy used up) and EXPIRED (expiration_time passed
 * before a receiver took the task). FAILED and EXPIRED are final.
 */
export type TaskStatus = 'CREATE' | 'EXECUTING' | 'WAITING' | 'BREAK' | 'FINISH' | 'FAILED' | 'EXPIRED';

/** What became of a handoff at a service: one outcome event of the events topic. */
export interface OutcomeStep {
  kind: 'outcome';
  time: string;
  message_id: string;
  handoff_type: string;
  issue_category?: string;
  sender?: string;
  receiver?: string;
  /** The service that finished with the handoff. */
  agent_id: string;
  outcome: string;
  target?: string;
  detail?: string;
  error_code?: string;
}

/** Why the handoff state machine refused a lifecycle message: it was recorded, never applied. */
export interface Refusal {
  code: 'ILLEGAL_TRANSITION';
  /** The side whose machine refused: `sender` or `receiver`. */
  side: string;
  /** The state it was in. */
  from: string;
  /** The event it could not take there. */
  event: string;
  message: string;
}

/** A lifecycle message of a negotiated handoff (HandoffRequest, HandoffAccept, ...). */
export interface LifecycleStep {
  kind: 'lifecycle';
  time: string;
  message_id: string;
  message_type: string;
  sender: string;
  receiver: string;
  /** The request a reply answers; on a retried request, the negotiation's first request. */
  correlation_id?: string;
  /** The payload's gist: a reason, a status, an error. */
  detail?: string;
  /** Present when the state machine refused the message. */
  refused?: Refusal;
}

/** The context a negotiation offers, staged before its first request. */
export interface StagedStep {
  kind: 'staged';
  time: string;
  /** `<request message_id>.staged`. */
  message_id: string;
  sender: string;
  context_mode: 'by-value' | 'by-reference';
  detail: string;
}

/** One step of a task's path (`GET /v1/tasks/{task_id}`): one record of the events topic, by `kind`. */
export type TimelineEvent = OutcomeStep | LifecycleStep | StagedStep;

/** One HandoffRequest of a negotiation and what its receiver did with it. */
export interface HandoffAttemptAnswer {
  request_id: string;
  receiver: string;
  /** Why it was asked: `target`, `retry`, `escalate_to`, `fallback_action` or `suggestion`. */
  via: string;
  requested_at: string;
  /** The receiver's state in the handoff state machine. */
  receiver_state: string;
  accepted_at?: string;
  context_sent_at?: string;
  completed_at?: string;
  rejection?: { reason: string; suggestions: string[] };
  failure?: { code: string; message: string };
}

/** A negotiated handoff of a task: the sender's side, as the tracker runs it, and every attempt. */
export interface NegotiationAnswer {
  /** The message_id of the first HandoffRequest. */
  negotiation_id: string;
  sender_id: string;
  terms: {
    desired_agent_type: string;
    reason: string;
    expiration_time?: string;
    time_limit?: string;
    failure_handling_strategy?: { retry_count?: number; escalate_to?: string; fallback_action?: string };
  };
  context_mode: 'by-value' | 'by-reference';
  staged_at: string;
  /** The sender's state in the handoff state machine. */
  sender_state: string;
  attempts: HandoffAttemptAnswer[];
  outcome: 'OPEN' | 'COMPLETED' | 'FAILED' | 'EXPIRED';
  ended_at?: string;
  /** Why it FAILED or EXPIRED. */
  reason?: string;
}

/** A lifecycle message the state machine refused (late, duplicated under another id, out of order). */
export interface RefusedMessageAnswer {
  message_id: string;
  message_type: string;
  time: string;
  error: Refusal;
}

/** `GET /v1/tasks/{task_id}`: the task as the events topic tells it (the tracker's fold, @baton/task-tracking). */
export interface TaskAnswer {
  task_id: string;
  status: TaskStatus;
  /** The agent(s) holding the task, comma-separated as routed; null when finished, dead-lettered or expired. */
  owner: string | null;
  parent_task_ids: string[];
  /** Tasks whose events name this one in parent_task_ids, by task_id. */
  children: string[];
  /** Every record of the task on the events topic, in topic order. */
  events: TimelineEvent[];
  /** The task's negotiated handoffs, oldest first. */
  negotiations: NegotiationAnswer[];
  refused: RefusedMessageAnswer[];
  /** The agents' replies to the user, in the order they were sent. */
  replies: UserReply[];
}

/** A task list's status filter: a task status, or STUCK (EXECUTING past its deadline or silent too long). */
export type TaskListStatus = TaskStatus | 'STUCK';

/** Why a task counts as stuck: its handoff's expiration_time passed, or no event came for the stuck threshold. */
export type StuckReason = 'deadline' | 'silent';

/** One task of `GET /v1/tasks`, newest first. */
export interface TaskListRow {
  task_id: string;
  status: TaskStatus;
  /** Set while the task is EXECUTING and stuck, as of the answer. */
  stuck?: StuckReason;
  /** The agent(s) holding the task, comma-separated as routed; null when nobody does. */
  owner: string | null;
  /** Every handoff_type, issue_category, agent and error code its events named, in the order first named. */
  handoff_types: string[];
  issue_categories: string[];
  agents: string[];
  error_codes: string[];
  /** The correlation_id its first event carried. */
  correlation_id?: string;
  parent_task_ids: string[];
  /** Its newest outcome event. */
  last_outcome?: { outcome: string; agent_id: string; time: string; error_code?: string };
  /** Records of the task on the events topic. */
  events: number;
  created_at: string;
  updated_at: string;
  /** The expiration_time of the handoff the task is executing, when that handoff has one. */
  expires_at?: string;
}

/** `GET /v1/tasks`: a page of the tasks that match, newest first; `next_cursor` asks for the next, older one. */
export interface TaskListAnswer {
  tasks: TaskListRow[];
  /** Tasks that match, over every page. */
  total: number;
  next_cursor?: string;
}

/** `GET /v1/tasks`'s query: every filter given must hold. */
export interface TaskListParameters {
  /** Comma-separated TaskListStatus values; a task in any of them matches. */
  status?: string;
  /** An agent that sent, received, held or reported on the task. */
  agent?: string;
  handoff_type?: string;
  issue_category?: string;
  error_code?: string;
  /** ISO 8601: tasks with an event at or after `from` and created at or before `to`. */
  from?: string;
  to?: string;
  /** A substring of the task's id, a parent's, a correlation_id or a message_id. */
  q?: string;
  /** The tasks of one flow: a correlation_id its events carry or the message_id that started it. */
  correlation_id?: string;
  /** Seconds without an event after which an EXECUTING task is stuck (the gateway's BATON_TASK_STUCK_AFTER_S by default). */
  stuck_after?: number;
  limit?: number;
  cursor?: string;
}

/** An agent's card as it registered it in `<prefix>.agents` (id, name, domain, skills, modes, version). */
export interface AgentCardAnswer {
  agent_id: string;
  name: string;
  domain: string;
  description?: string;
  skills: { name: string; description?: string }[];
  /** TEXT, IMAGE, AUDIO or EMBEDDED. */
  input_modes: string[];
  output_modes: string[];
  version: string;
  instance_id: string;
  started_at: string;
  heartbeat_interval_ms: number;
}

/** One instance's registration: whether its last heartbeat is within the liveness window. */
export interface AgentRegistrationAnswer {
  instance_id: string;
  live: boolean;
  last_heartbeat_at: string;
  started_at: string;
  version: string;
  /** Failures by code its last heartbeat told of over the minute before it (its model, its tools); absent when none. */
  recent_failures?: Record<string, number>;
}

/** `GET /v1/agents` */
export interface AgentStatus {
  agent_id: string;
  group_id: string;
  /** At least one instance is a member of the agent's consumer group. */
  up: boolean;
  /** The group coordinator's state: Stable, PreparingRebalance, CompletingRebalance, Empty, Dead. */
  state: string;
  /**
   * Handoffs waiting: offsets between the group's committed positions and the end of its inbox (the
   * router's: the inbound topic); null when the topic cannot be read yet.
   */
  lag: number | null;
  /**
   * Negotiation messages waiting: the same, of the agent's control consumer group on its control
   * topic; null for the router, and when the agent has no control consumer group yet.
   */
  control_lag: number | null;
  /** The outcomes it reported over the overview's window (15 minutes), by outcome. */
  recent_outcomes: Record<string, number>;
  /** The consumer group's members; `live` and `last_heartbeat_at` when the member has registered. */
  instances: { instance_id: string; host: string; live?: boolean; last_heartbeat_at?: string }[];
  /** At least one registered instance is live; null when the agent has no registration (the router). */
  live: boolean | null;
  /** The card of the instance that heartbeated last; null when none is registered. */
  card: AgentCardAnswer | null;
  /** Every registration in the registry topic, live or not, by instance_id. */
  registrations: AgentRegistrationAnswer[];
}

/** Dead-letter filters: the list's query parameters and a bulk replay's `filter`, same names. */
export interface DeadLetterFilterParameters {
  error_code?: string;
  task_id?: string;
  handoff_type?: string;
  /** `name=value`; every one must match. */
  header?: string | string[];
  /** ISO 8601: dead-lettered at or after. */
  from?: string;
  /** ISO 8601: dead-lettered before. */
  to?: string;
}

/** `GET /v1/dlq` */
export interface DeadLetterTopicSummary {
  topic: string;
  source_topic: string;
  /** Every record read from the topic, including those no longer kept in memory. */
  count: number;
}

/** `GET /v1/dead-letters/stats`: totals across every DLQ topic. */
export interface DeadLetterStats {
  /** Every dead letter read, across the topics. */
  total: number;
  /** By error code, most first. */
  by_error_code: { error_code: string; count: number }[];
  /** The topics holding dead letters, most first; the empty ones are left out. */
  by_topic: DeadLetterTopicSummary[];
  /** How many DLQ topics hold none. */
  empty_topics: number;
}

export interface DeadLetterSummary {
  /** `<partition>-<offset>` within the DLQ topic. */
  id: string;
  topic: string;
  partition: number;
  offset: string;
  timestamp: string;
  task_id: string | null;
  message_id?: string;
  handoff_type?: string;
  error_code: string;
  error_message: string;
  stage: string;
  attempts: number;
  source_topic: string;
  replay_count: number;
}

export interface DeadLetterDetail extends DeadLetterSummary {
  headers: Record<string, string>;
  error: {
    code: string;
    message: string;
    class: string;
    stage: string;
    retriable: boolean;
    attempts: number;
    consumer_group: string;
    instance_id: string;
    time: string;
    source: { topic: string; partition: number; offset: string };
  };
  /** The decoded handoff, or null with `body_error` when the bytes do not decode. */
  body: unknown;
  body_error?: { code: string; message: string };
  /**
   * The record's value as it travels; null when it has none, or when it is withheld from a caller
   * without the personal-data role (then `value_redacted` says why).
   */
  value_base64: string | null;
  /**
   * Present when `value_base64` is withheld: `personal-data`, the value holds a personal field in
   * clear, or does not decode, so what it holds cannot be told.
   */
  value_redacted?: 'personal-data';
  replays: AuditEntry[];
}

/** `POST /v1/dlq/{topic}/messages/{id}/replay` */
export interface ReplayResult {
  audit_id: string;
  dlq_topic: string;
  id: string;
  target_topic: string;
  message_id?: string;
  partition: number;
  offset: string;
}

export const REPLAY_JOB_STATES = ['planned', 'running', 'paused', 'stopped', 'completed'] as const;
export type ReplayJobState = (typeof REPLAY_JOB_STATES)[number];

export interface PlannedReplay {
  id: string;
  message_id?: string;
  task_id: string | null;
  target_topic: string;
}

/** A bulk replay (`/v1/replays`): its plan (the dry run) and, once started, its progress. */
export interface ReplayJob {
  job_id: string;
  state: ReplayJobState;
  dlq_topic: string;
  filter: DeadLetterFilterParameters;
  reason: string;
  target_topic?: string;
  new_message_id: boolean;
  rate_per_second: number;
  actor: string;
  created_at: string;
  plan: { count: number; targets: Record<string, number>; items: PlannedReplay[]; items_truncated: boolean };
  /** `refused`: items the trust gate refused (REPLAY_TRUST_REFUSED), counted apart from `failed`. */
  progress: { total: number; replayed: number; refused: number; failed: number; remaining: number };
  /** `reason_code`: for a refused item, the code it was refused for. */
  errors: { id: string; code: string; message: string; reason_code?: string }[];
}

export const AUDIT_ACTIONS = [
  'replay',
  'replay_job.start',
  'replay_job.pause',
  'replay_job.resume',
  'replay_job.stop',
  'replay_job.complete',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One operator action, as kept in `<prefix>.audit`: who, when, why and what. */
export interface AuditEntry {
  audit_id: string;
  time: string;
  actor: string;
  action: AuditAction;
  reason: string;
  dlq_topic: string;
  /** The dead letter replayed. */
  id?: string;
  job_id?: string;
  /** The message id the replayed record carries; the dead letter's own when it was replaced. */
  message_id?: string;
  original_message_id?: string;
  new_message_id?: boolean;
  target_topic?: string;
  /** The trust gate's refusal that an operator with the trust-override role overrode (REPLAY_TRUST_REFUSED's message). */
  trust_overridden?: string;
  outcome: string;
}

/** An agent's reply to the user, as a task's event stream carries it (`event: reply`). */
export interface UserReply {
  kind: 'reply';
  message_id: string;
  time: string;
  agent_id: string;
  message: string;
}

/** Something the overview says an operator should look at. */
export interface AttentionItem {
  kind: 'agent_down' | 'agent_not_live' | 'agent_failing' | 'lag_growing' | 'stuck_tasks' | 'dead_letters';
  /** The agent (of stuck tasks: the one holding them) or the DLQ topic. */
  subject: string;
  detail: string;
}

/** The outcomes of one minute: how many handoffs ended in each outcome, by the events' own times. */
export interface MinuteOutcomes {
  /** The minute's start, ISO 8601. */
  minute: string;
  outcomes: Record<string, number>;
}

/** `GET /v1/overview` */
export interface OverviewAnswer {
  generated_at: string;
  /** Most serious first; empty when all is well. */
  attention: AttentionItem[];
  agents: AgentStatus[];
  dead_letters: DeadLetterStats;
  outcomes: { window_minutes: number; per_minute: MinuteOutcomes[] };
}
