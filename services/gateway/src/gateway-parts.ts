import type { AgentStatus } from '@baton/gateway-api';
import type { HandoffCodec } from '@baton/wire';
import type { AuditTrail } from './audit/audit-trail.js';
import type { DeadLetterStore } from './dead-letters/dead-letter-store.js';
import type { HandoffSubmitter } from './publishing/handoff-submitter.js';
import type { ReplayJobs } from './replay/replay-jobs.js';
import type { Replayer } from './replay/replayer.js';
import type { TaskTimelines } from './timeline/task-timelines.js';

/** What the gateway's routes work with. */
export interface GatewayParts {
  submitter: HandoffSubmitter;
  timelines: TaskTimelines;
  listAgents(): Promise<AgentStatus[]>;
  deadLetters: DeadLetterStore;
  audit: AuditTrail;
  codec: HandoffCodec;
  replayer: Replayer;
  jobs: ReplayJobs;
}
