/**
 * The slow-handler row: one instance of slow_agent (its handler waits 2 s), SLOW_TASKS tasks of
 * SLOW_HANDOFFS_PER_TASK handoffs each published at once through the router, and the throughput
 * from the first publish to the last COMPLETED outcome against the ideal min(concurrency, tasks) / 2 s.
 */
import type { OutputRecord, RecordProducer, TopicNames } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import { handoffRecord, loadServiceConfig } from '@baton/runtime';
import type { HandoffCodec } from '@baton/wire';
import type { ArrivalObserver } from './arrival-observer.js';
import type { BenchProcesses } from './bench-processes.js';
import { waitForCount } from './deadline.js';
import { publishAll } from './publish.js';
import {
  SLOW_AGENT_ID,
  SLOW_HANDLER_MS,
  SLOW_HANDOFFS_PER_TASK,
  SLOW_TASKS,
  idealPerS,
  roundBoundPerS,
} from './slow-handler.js';
import { pairedSummary, type LatencySummary } from './stats.js';

export interface SlowHandlerBenchOptions {
  codec: HandoffCodec;
  topics: TopicNames;
  partitions: number;
  /** The environment the agent runs with: its concurrency bound is read from it as the engine reads it. */
  env: Record<string, string>;
  producer: RecordProducer;
  observer: ArrivalObserver;
  processes: BenchProcesses;
  progress(text: string): void;
}

export interface SlowHandlerResult {
  tasks: number;
  handoffsPerTask: number;
  handlerMs: number;
  /** The agent's bound on handlers at once in one instance (BATON_MAX_CONCURRENCY or the engine's default). */
  concurrency: number;
  idealPerS: number;
  /** What whole rounds of handlers allow at best; see roundBoundPerS. */
  roundBoundPerS: number;
  /** Publish to COMPLETED; its throughput is the row's. */
  summary: LatencySummary;
}

export async function benchSlowHandler(options: SlowHandlerBenchOptions): Promise<SlowHandlerResult> {
  const { codec, topics, producer, observer, processes, progress } = options;
  const concurrency = loadServiceConfig(`agent.${SLOW_AGENT_ID}`, { ...process.env, ...options.env }).consumerTuning
    .maxConcurrency;
  progress(`slow handler: starting ${SLOW_AGENT_ID} (handler ${SLOW_HANDLER_MS} ms, concurrency bound ${concurrency})`);
  await processes.start(SLOW_AGENT_ID, 'bench/slow-agent.ts', { SLOW_HANDLER_MS: String(SLOW_HANDLER_MS) });

  // Round by round, so each task's handoffs are published in order.
  const records: OutputRecord[] = [];
  for (let step = 0; step < SLOW_HANDOFFS_PER_TASK; step += 1) {
    for (let task = 0; task < SLOW_TASKS; task += 1) {
      const message = buildHandoff({
        metadata: { sender_id: 'bench', recipient_id: SLOW_AGENT_ID, task_id: `bench-slow-${task}` },
        payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: `slow step ${step}` } },
      });
      records.push(handoffRecord(codec, topics.inbound, message));
    }
  }
  progress(`slow handler: publishing ${SLOW_TASKS} tasks × ${SLOW_HANDOFFS_PER_TASK} handoffs to ${SLOW_AGENT_ID}`);
  const sentAt = await publishAll(producer, topics.inbound, records);
  // Long enough for an engine that runs one handler per partition at a time, half as fast again.
  const serialMs = (records.length * SLOW_HANDLER_MS) / options.partitions;
  await waitForCount({
    label: `slow handler (${SLOW_AGENT_ID} COMPLETED outcomes)`,
    total: records.length,
    count: () => observer.countOf(topics.events, sentAt.keys()),
    progress,
    stallMs: 60_000,
    deadlineMs: 60_000 + 1.5 * serialMs,
  });
  return {
    tasks: SLOW_TASKS,
    handoffsPerTask: SLOW_HANDOFFS_PER_TASK,
    handlerMs: SLOW_HANDLER_MS,
    concurrency,
    idealPerS: idealPerS(concurrency, SLOW_TASKS, SLOW_HANDLER_MS),
    roundBoundPerS: roundBoundPerS(concurrency, SLOW_TASKS, records.length, SLOW_HANDLER_MS),
    summary: pairedSummary(sentAt, observer.arrivals(topics.events)),
  };
}
