/**
 * The negotiated part of `npm run bench`: starts the tracker and bench_sender, publishes `count`
 * handoffs to the router addressed to bench_sender (one task each), which offers each to
 * bench_agent by negotiation, and reads the events topic: per task, the time from the
 * HandoffRequest's timestamp to the HandoffComplete's and to bench_agent's COMPLETED outcome, and
 * the throughput from the first publish to the last completion.
 */
import { randomUUID } from 'node:crypto';
import { createKafka, kafkaSecurityFromEnv, RecordProducer, TopicReader, type TopicNames } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import { handoffRecord } from '@baton/runtime';
import { EventsCodec, SchemaRegistryClient, createHandoffCodec } from '@baton/wire';
import type { BenchProcesses } from './bench-processes.js';
import { BenchTimeoutError, waitForCount, withDeadline } from './deadline.js';
import {
  NEGOTIATION_STEPS,
  NegotiationTimeline,
  mattersToTimeline,
  negotiationLatencies,
} from './negotiation-timeline.js';
import { summarise, type LatencySummary } from './stats.js';

const SENDER = 'bench_sender';
const RECEIVER = 'bench_agent';
export const NEGOTIATED_TASK_PREFIX = 'bench-negotiated-';
const BATCH = 500;
/** A run with no negotiation settled for this long has stalled: the tracker's own timeouts are 30 s. */
const STALL_MS = 120_000;
/** The observer reads the events topic to its end before anything is published. */
const CATCH_UP_MS = 600_000;

export interface NegotiationBenchOptions {
  count: number;
  brokers: string[];
  schemaRegistryUrl: string;
  topics: TopicNames;
  /** Starts the tracker and the sender; stops them at the end of the bench. */
  processes: BenchProcesses;
  progress(text: string): void;
}

export interface NegotiationBenchResult {
  negotiations: number;
  completed: number;
  failed: number;
  /** Rejections, HandoffComplete FAILUREs and timeouts on the way to the outcome. */
  setbacks: number;
  undecodable: number;
  /** `negotiated.toHandoffComplete` and `negotiated.toCompleted`, from the first HandoffRequest. */
  rows: Record<string, LatencySummary>;
  stepsMs: Record<string, { p50Ms: number; p99Ms: number }>;
}

export async function benchNegotiations(options: NegotiationBenchOptions): Promise<NegotiationBenchResult> {
  const { count, brokers, topics, processes, progress } = options;
  progress('negotiated handoffs: starting the tracker (it reads the events topic to its end first)');
  await processes.start('tracker', 'services/tracker/src/main.ts');
  progress(`negotiated handoffs: starting ${SENDER}`);
  await processes.start(SENDER, 'bench/bench-negotiating-agent.ts');

  const registry = new SchemaRegistryClient({ url: options.schemaRegistryUrl });
  const [codec, events] = await Promise.all([createHandoffCodec(registry), EventsCodec.create(registry)]);
  const timeline = new NegotiationTimeline(RECEIVER);
  let undecodable = 0;
  const kafka = createKafka({ brokers, clientId: 'bench-negotiation', security: kafkaSecurityFromEnv(process.env) });
  const observer = new TopicReader({
    kafka,
    groupId: `bench-negotiation-observer-${randomUUID()}`,
    topics: [topics.events],
    // From the beginning, to be sure to see every record of the run; the fast path's are skipped by key.
    catchUp: { timeoutMs: CATCH_UP_MS },
    onRecord: async (record) => {
      const readAt = Date.now();
      if (record.value === null || !record.key?.startsWith(NEGOTIATED_TASK_PREFIX)) return;
      if (!mattersToTimeline(record.headers.ce_type)) return;
      try {
        timeline.add(await events.decode(record.value), readAt);
      } catch {
        undecodable += 1;
      }
    },
  });
  progress(`negotiated handoffs: reading ${topics.events} to its end before publishing`);
  await withDeadline(observer.start(), 'events observer catching up', CATCH_UP_MS + 10_000, progress);

  const publishedAt = new Map<string, number>();
  const producer = new RecordProducer(kafka);
  await producer.connect();
  try {
    const records = Array.from({ length: count }, (_, i) =>
      handoffRecord(
        codec,
        topics.inbound,
        buildHandoff({
          metadata: { sender_id: 'bench', recipient_id: SENDER, task_id: `${NEGOTIATED_TASK_PREFIX}${i}` },
          payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: `negotiated ${i}` } },
        }),
      ),
    );
    progress(`negotiated handoffs: publishing ${count} handoffs to ${SENDER}, one task each`);
    const firstPublishedAt = Date.now();
    for (let start = 0; start < records.length; start += BATCH) {
      const batch = records.slice(start, start + BATCH);
      const now = Date.now();
      for (const record of batch) publishedAt.set(record.key, now);
      await producer.send(batch);
    }

    try {
      await waitForCount({
        label: 'negotiated handoffs settled (completed or failed)',
        total: count,
        count: () => timeline.settled,
        progress,
        stallMs: STALL_MS,
        // The tracker's timeouts are 30 s: a negotiation can take a few of them and still end.
        deadlineMs: 180_000 + count * 100,
      });
    } catch (error) {
      if (!(error instanceof BenchTimeoutError)) throw error;
      throw new BenchTimeoutError(
        `${error.message}; ${timeline.completed} completed, ${timeline.failed} failed, tasks seen ` +
          `${timeline.tasks.size}, missing per step ${JSON.stringify(timeline.missing())}`,
      );
    }
    progress(`negotiated handoffs completed: ${timeline.completed}/${count}, failed ${timeline.failed}`);

    const latencies = negotiationLatencies(timeline.tasks, publishedAt);
    const rows = {
      'negotiated.toHandoffComplete': summarise(latencies.toComplete, firstPublishedAt, latencies.lastCompleteReadAt),
      'negotiated.toCompleted': summarise(latencies.toCompleted, firstPublishedAt, latencies.lastCompletedReadAt),
    };
    const stepsMs = Object.fromEntries(
      NEGOTIATION_STEPS.map((step) => {
        const { p50Ms, p99Ms } = summarise(latencies.steps[step], 0, 1);
        return [step, { p50Ms, p99Ms }];
      }),
    );
    const setbacks = [...timeline.tasks.values()].reduce((sum, task) => sum + task.setbacks, 0);
    return {
      negotiations: count,
      completed: timeline.completed,
      failed: timeline.failed,
      setbacks,
      undecodable,
      rows,
      stepsMs,
    };
  } finally {
    await producer.disconnect();
    await observer.stop();
  }
}
