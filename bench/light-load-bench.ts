/**
 * The light-load row: handoffs published one at a time at a steady rate (20 a second for 30 s by
 * default, each due by the clock, none bunched), through the router to the bench agent, one task
 * each. Per hop: publish → the agent's inbox (the router hop), inbox → the agent's COMPLETED
 * outcome (the agent hop), and publish → COMPLETED (the full path).
 */
import type { TopicNames } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import { handoffRecord } from '@baton/runtime';
import type { HandoffCodec } from '@baton/wire';
import type { ArrivalObserver } from './arrival-observer.js';
import { waitForCount } from './deadline.js';
import { paceSchedule, runPaced, type PacingReport } from './pacing.js';
import { messageIdOf } from './publish.js';
import { rawKafkajs, rawProducer } from './raw-kafkajs.js';
import { pairedSummary, type LatencySummary } from './stats.js';

export const LIGHT_LOAD_RATE_PER_S = 20;
export const LIGHT_LOAD_SECONDS = 30;

export interface LightLoadBenchOptions {
  brokers: string[];
  codec: HandoffCodec;
  topics: TopicNames;
  agentId: string;
  observer: ArrivalObserver;
  progress(text: string): void;
}

export interface LightLoadResult {
  ratePerS: number;
  seconds: number;
  /** How closely the sends kept to their schedule. */
  pacing: PacingReport;
  routerHop: LatencySummary;
  agentHop: LatencySummary;
  fullPath: LatencySummary;
}

export async function benchLightLoad(options: LightLoadBenchOptions): Promise<LightLoadResult> {
  const { codec, topics, observer, progress } = options;
  const schedule = paceSchedule(LIGHT_LOAD_RATE_PER_S, LIGHT_LOAD_SECONDS);
  const records = schedule.map((_, i) =>
    handoffRecord(
      codec,
      topics.inbound,
      buildHandoff({
        metadata: { sender_id: 'bench', recipient_id: options.agentId, task_id: `bench-light-${i}` },
        payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: `light ${i}` } },
      }),
    ),
  );
  // Its own producer, kafkajs's, not idempotent: sends overlap when one is slow, and each is its own request.
  const producer = rawProducer(rawKafkajs(options.brokers, 'bench-light-load'));
  await producer.connect();
  const publishedAt = new Map<string, number>();
  const sends: Promise<void>[] = [];
  const failures: unknown[] = [];
  try {
    progress(`light load: ${LIGHT_LOAD_RATE_PER_S} handoffs a second for ${LIGHT_LOAD_SECONDS} s, one request each`);
    const ticker = setInterval(() => progress(`light load: ${publishedAt.size}/${records.length} published`), 5_000);
    let pacing: PacingReport;
    try {
      pacing = await runPaced(schedule, (i) => {
        const record = records[i]!;
        publishedAt.set(messageIdOf(record), Date.now());
        sends.push(
          producer
            .send({
              topic: topics.inbound,
              acks: -1,
              messages: [{ key: record.key, value: record.value, headers: record.headers }],
            })
            .then(
              () => undefined,
              (error: unknown) => void failures.push(error),
            ),
        );
      });
    } finally {
      clearInterval(ticker);
    }
    await Promise.all(sends);
    if (failures.length > 0) {
      throw new Error(`light load: ${failures.length} of ${records.length} sends failed`, { cause: failures[0] });
    }
    await waitForCount({
      label: 'light load (COMPLETED outcomes)',
      total: records.length,
      count: () => observer.countOf(topics.events, publishedAt.keys()),
      progress,
      stallMs: 30_000,
      deadlineMs: 60_000,
    });
    const inbox = observer.arrivals(topics.agentInbox(options.agentId));
    const inboxAt = new Map([...publishedAt.keys()].flatMap((id) => (inbox.has(id) ? [[id, inbox.get(id)!]] : [])));
    const completedAt = observer.arrivals(topics.events);
    return {
      ratePerS: LIGHT_LOAD_RATE_PER_S,
      seconds: LIGHT_LOAD_SECONDS,
      pacing,
      routerHop: pairedSummary(publishedAt, inboxAt),
      agentHop: pairedSummary(inboxAt, completedAt),
      fullPath: pairedSummary(publishedAt, completedAt),
    };
  } finally {
    await Promise.all(sends);
    await producer.disconnect();
  }
}
