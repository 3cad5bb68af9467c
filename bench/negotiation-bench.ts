/**
 * The negotiated part of `npm run bench`: starts the tracker and bench_sender, publishes `count`
 * handoffs to the router addressed to bench_sender (one task each), which offers each to
 * bench_agent by negotiation (seed 001), and reads the events topic: per task, the time from the
 * HandoffRequest's timestamp to the HandoffComplete's and to bench_agent's COMPLETED outcome, and
 * the throughput from the first publish to the last completion.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { createKafka, createProducer, TopicReader, type TopicNames } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import { handoffRecord } from '@baton/runtime';
import { EventsCodec, SchemaRegistryClient, createHandoffCodec } from '@baton/wire';
import { startProcess, type RunningService } from '../scripts/lib/service-supervisor.js';
import { NEGOTIATION_STEPS, NegotiationTimeline, negotiationLatencies } from './negotiation-timeline.js';
import { peakRssMiB } from './peak-rss.js';
import { latencyLine, summarise, type LatencySummary } from './stats.js';

const SENDER = 'bench_sender';
const RECEIVER = 'bench_agent';
const TASK_PREFIX = 'bench-negotiated-';
const BATCH = 500;
const PROGRESS_EVERY_MS = 2_000;
/** A run with no new event for this long has stalled: the tracker's own timeouts are 30 s. */
const STALL_MS = 120_000;

export interface NegotiationBenchOptions {
  count: number;
  brokers: string[];
  schemaRegistryUrl: string;
  topics: TopicNames;
  /** The environment the other services run with (brokers, registry, prefix, partitions). */
  env: Record<string, string>;
  /** Where the processes started here go, for the caller to stop. */
  services: RunningService[];
  progress(text: string): void;
}

export interface NegotiationBenchResult {
  report: string[];
  result: {
    negotiations: number;
    completed: number;
    failed: number;
    setbacks: number;
    rows: Record<string, LatencySummary>;
    stepsMs: Record<string, { p50Ms: number; p99Ms: number }>;
    peakRssMiB: Record<string, number>;
  };
}

/** Awaits `promise`, saying every PROGRESS_EVERY_MS that it is still waiting. */
async function withProgress<T>(promise: Promise<T>, label: string, progress: (text: string) => void): Promise<T> {
  const began = Date.now();
  const timer = setInterval(
    () => progress(`${label}: still waiting (${Math.round((Date.now() - began) / 1000)} s)`),
    PROGRESS_EVERY_MS,
  );
  try {
    return await promise;
  } finally {
    clearInterval(timer);
  }
}

export async function benchNegotiations(options: NegotiationBenchOptions): Promise<NegotiationBenchResult> {
  const { count, brokers, topics, env, services, progress } = options;
  progress('negotiated handoffs: starting the tracker (it reads the events topic to its end first)');
  const tracker = startProcess('tracker', 'services/tracker/src/main.ts', env, false);
  services.push(tracker);
  await withProgress(tracker.started, 'tracker', progress);
  progress(`negotiated handoffs: starting ${SENDER}`);
  const sender = startProcess(SENDER, 'bench/bench-negotiating-agent.ts', env, false);
  services.push(sender);
  await withProgress(sender.started, SENDER, progress);

  const registry = new SchemaRegistryClient({ url: options.schemaRegistryUrl });
  const [codec, events] = await Promise.all([createHandoffCodec(registry), EventsCodec.create(registry)]);
  const timeline = new NegotiationTimeline(RECEIVER);
  let lastEventAt = Date.now();
  let undecodable = 0;
  let wake: (() => void) | undefined;
  const kafka = createKafka({ brokers, clientId: 'bench-negotiation' });
  const observer = new TopicReader({
    kafka,
    groupId: `bench-negotiation-observer-${randomUUID()}`,
    topics: [topics.events],
    // From the beginning, to be sure to see every record of the run; the fast path's are skipped by key.
    catchUp: { timeoutMs: 600_000 },
    onRecord: async (record) => {
      const readAt = Date.now();
      if (record.value === null || !record.key?.startsWith(TASK_PREFIX)) return;
      try {
        timeline.add(await events.decode(record.value), readAt);
      } catch {
        undecodable += 1;
      }
      lastEventAt = readAt;
      if (timeline.settled >= count) wake?.();
    },
  });
  progress(`negotiated handoffs: reading ${topics.events} to its end before publishing`);
  await withProgress(observer.start(), 'events observer catching up', progress);

  const publishedAt = new Map<string, number>();
  const producer = createProducer(kafka, { idempotent: true });
  await producer.connect();
  try {
    const records = Array.from({ length: count }, (_, i) =>
      handoffRecord(
        codec,
        topics.inbound,
        buildHandoff({
          metadata: { sender_id: 'bench', recipient_id: SENDER, task_id: `${TASK_PREFIX}${i}` },
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
      await producer.send({
        topic: topics.inbound,
        acks: -1,
        messages: batch.map((record) => ({ key: record.key, value: record.value, headers: record.headers })),
      });
    }

    let last = -1;
    while (timeline.settled < count) {
      if (timeline.settled !== last) progress(`negotiated handoffs completed: ${timeline.completed}/${count}`);
      last = timeline.settled;
      if (Date.now() - lastEventAt > STALL_MS) {
        throw new Error(
          `negotiated handoffs stalled: ${timeline.completed} completed, ${timeline.failed} failed of ${count}; ` +
            `tasks seen ${timeline.tasks.size}, missing per step ${JSON.stringify(timeline.missing())}`,
        );
      }
      // Woken as soon as the last task settles, else every PROGRESS_EVERY_MS to report.
      const tick = new AbortController();
      await Promise.race([
        new Promise<void>((resolve) => (wake = resolve)),
        delay(PROGRESS_EVERY_MS, undefined, { signal: tick.signal }).catch(() => undefined),
      ]);
      tick.abort();
    }
    progress(`negotiated handoffs completed: ${timeline.completed}/${count}, failed ${timeline.failed}`);

    const rss = {
      tracker: await peakRssMiB(tracker.child.pid),
      [SENDER]: await peakRssMiB(sender.child.pid),
    };
    const latencies = negotiationLatencies(timeline.tasks, publishedAt);
    const rows = {
      'request→HandoffComplete': summarise(latencies.toComplete, firstPublishedAt, latencies.lastCompleteReadAt),
      'request→COMPLETED': summarise(latencies.toCompleted, firstPublishedAt, latencies.lastCompletedReadAt),
    };
    const stepsMs = Object.fromEntries(
      NEGOTIATION_STEPS.map((step) => {
        const { p50Ms, p99Ms } = summarise(latencies.steps[step], 0, 1);
        return [step, { p50Ms, p99Ms }];
      }),
    );
    const setbacks = [...timeline.tasks.values()].reduce((sum, task) => sum + task.setbacks, 0);
    const report = [
      '',
      `${count} negotiated handoffs (${SENDER} asks ${RECEIVER}, the tracker runs the sender's side), one task each`,
      ...Object.entries(rows).map(([name, summary]) => latencyLine(name, summary)),
      `steps p50/p99 (ms): ${Object.entries(stepsMs)
        .map(([step, s]) => `${step} ${s.p50Ms}/${s.p99Ms}`)
        .join(', ')}`,
      `completed ${timeline.completed}, failed ${timeline.failed}, rejections/timeouts on the way ${setbacks}` +
        (undecodable > 0 ? `, undecodable events ${undecodable}` : ''),
      `peak RSS (MiB): ${Object.entries(rss)
        .map(([name, mib]) => `${name} ${mib}`)
        .join(', ')}`,
      '',
    ];
    return {
      report,
      result: {
        negotiations: count,
        completed: timeline.completed,
        failed: timeline.failed,
        setbacks,
        rows,
        stepsMs,
        peakRssMiB: rss,
      },
    };
  } finally {
    wake = undefined;
    await producer.disconnect();
    await observer.stop();
  }
}
