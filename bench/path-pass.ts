/**
 * One measured pass of handoffs through a router and a bench agent: the bench's publisher sends
 * them as fast as the broker takes them, and the pass ends when the agent's COMPLETED outcome of
 * each has arrived. Shared by the paired rounds that compare two such paths taking turns
 * (signatures off and required, one broker and three).
 */
import type { RecordProducer, TopicNames } from '@baton/kafka';
import type { HandoffCodec } from '@baton/wire';
import type { ArrivalObserver } from './arrival-observer.js';
import { waitForCount } from './deadline.js';
import { clockTicksPerSecond, treeCpuTicks } from './proc-stat.js';
import { publishAll } from './publish.js';
import { cpuUsPerHandoff, type PathRun } from './path-rounds.js';
import { pairedSummary } from './stats.js';
import { statusUpdateRecords } from './throughput-bench.js';

/** A wait that saw nothing new for a minute is stuck (a misconfigured key dead-letters everything). */
const STALL_MS = 60_000;

export interface PathPassOptions {
  /** Names the pass in progress lines and its tasks' ids. */
  label: string;
  producer: RecordProducer;
  /** Encodes the pass's handoffs (before the pass is timed). */
  codec: HandoffCodec;
  topics: TopicNames;
  /** Reads the path's events topic. */
  observer: ArrivalObserver;
  agentId: string;
  count: number;
  tasks: number;
  /** The processes whose CPU is measured, by name: their pids, each counted with its children. */
  roots: ReadonlyMap<string, number>;
  progress(text: string): void;
}

/** `count` handoffs through the path: throughput and latency to COMPLETED, CPU per handoff of each root. */
export async function pathPass(options: PathPassOptions): Promise<PathRun> {
  const { producer, topics, observer, roots, count, label } = options;
  const records = statusUpdateRecords(options.codec, topics.inbound, options.agentId, count, options.tasks, label);
  const before = await treeCpuTicks(roots);
  const sentAt = await publishAll(producer, topics.inbound, records);
  await waitForCount({
    label: `${label} (COMPLETED outcomes)`,
    total: sentAt.size,
    count: () => observer.countOf(topics.events, sentAt.keys()),
    progress: options.progress,
    stallMs: STALL_MS,
    deadlineMs: 120_000 + sentAt.size * 20,
  });
  const after = await treeCpuTicks(roots);
  const cpu = cpuUsPerHandoff(before, after, clockTicksPerSecond(), count);
  const gone = [...roots.keys()].filter((name) => !(name in cpu));
  if (gone.length > 0) throw new Error(`${gone.join(', ')} exited during ${label}`);
  return { fullPath: pairedSummary(sentAt, observer.arrivals(topics.events)), cpuUsPerHandoff: cpu };
}
