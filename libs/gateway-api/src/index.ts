/**
 * The gateway's HTTP API as types: what its routes answer and the filters they take. The gateway
 * builds these and its clients (the `baton` CLI) read them, so both sides change together.
 * docs/gateway-api.md describes them; the gateway's OpenAPI document shows their schemas.
 */
export type {
  AcceptedHandoff,
  NegotiationRequest,
  AcceptedNegotiation,
  TaskStatus,
  OutcomeStep,
  LifecycleStep,
  StagedStep,
  Refusal,
  TimelineEvent,
  HandoffAttemptAnswer,
  NegotiationAnswer,
  RefusedMessageAnswer,
  TaskAnswer,
  TaskListStatus,
  StuckReason,
  TaskListRow,
  TaskListAnswer,
  TaskListParameters,
  AgentStatus,
  AgentCardAnswer,
  AgentRegistrationAnswer,
  DeadLetterFilterParameters,
  DeadLetterTopicSummary,
  DeadLetterStats,
  UserReply,
  AttentionItem,
  MinuteOutcomes,
  OverviewAnswer,
  DeadLetterSummary,
  DeadLetterDetail,
  ReplayResult,
  ReplayJobState,
  PlannedReplay,
  ReplayJob,
  AuditAction,
  AuditEntry,
} from './answers.js';
export { AUDIT_ACTIONS, REPLAY_JOB_STATES } from './answers.js';
export { SseParser, type SseEvent } from './sse-parser.js';
export { ageText } from './age.js';
export { queryString, type QueryValue } from './query-string.js';
export { receiverStateText } from './receiver-state.js';
