import type { PersonalDataView } from '@baton/field-encryption';
import type { AgentStatus } from '@baton/gateway-api';
import type { HandoffCodec } from '@baton/wire';
import type { AuditTrail } from './audit/audit-trail.js';
import type { DeadLetterStore } from './dead-letters/dead-letter-store.js';
import type { HandoffSubmitter } from './publishing/handoff-submitter.js';
import type { NegotiationSubmitter } from './publishing/negotiation-submitter.js';
import type { ReplayJobs } from './replay/replay-jobs.js';
import type { Replayer } from './replay/replayer.js';
import type { TaskBook } from '@baton/task-tracking';
import type { LagTrend } from './overview/lag-trend.js';
import type { OutcomeRates } from './timeline/outcome-rates.js';
import type { TaskReplies } from './timeline/task-replies.js';
import type { TaskStreams } from './timeline/task-streams.js';

/** What the gateway's routes work with. */
export interface GatewayParts {
  submitter: HandoffSubmitter;
  /** Opens negotiated handoffs, as an agent's requestHandoff does. */
  negotiations: NegotiationSubmitter;
  /** Each task's fold of the events topic, bounded by BATON_TIMELINE_TASKS. */
  tasks: TaskBook;
  /** The open streams of tasks' steps and replies (GET /v1/tasks/{task_id}/events). */
  taskStreams: TaskStreams;
  /** The agents' replies to the user, by task. */
  replies: TaskReplies;
  /** Handoff outcomes per minute, recent minutes only: the overview's rates. */
  outcomeRates: OutcomeRates;
  /** Each agent's inbox lag as the overview sampled it over the last minute. */
  lagTrend: LagTrend;
  listAgents(): Promise<AgentStatus[]>;
  deadLetters: DeadLetterStore;
  audit: AuditTrail;
  codec: HandoffCodec;
  /** How a message body is shown: personal fields masked, or in clear to a principal with the personal-data role. */
  personalData: PersonalDataView;
  replayer: Replayer;
  jobs: ReplayJobs;
}
