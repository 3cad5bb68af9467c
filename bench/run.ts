/**
 * `npm run bench [N] [M]`: publishes N handoffs (default 20,000) through Baton and prints throughput
 * and p50/p95/p99 latency for the router hop alone and for the full path (router, agent, outcome
 * event); then, on the same broker, the same bytes through a bare kafkajs consume-and-produce relay
 * over the same number of hops; the ratio of each pair; and each service's peak RSS. Then M
 * negotiated handoffs (default N/10, at least 100; see negotiation-bench.ts) with the tracker running.
 */
import { randomUUID } from 'node:crypto';
import { provisionInfrastructure } from '@baton/local-infra';
import { createKafka, createProducer, createTopics, topicNames, type OutputRecord } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import { handoffRecord } from '@baton/runtime';
import { SchemaRegistryClient, createHandoffCodec, createOutcomeCodec } from '@baton/wire';
import { startProcess, stopServices, type RunningService } from '../scripts/lib/service-supervisor.js';
import { benchNegotiations } from './negotiation-bench.js';
import { peakRssMiB } from './peak-rss.js';
import { latencyLine, summarise, type LatencySummary } from './stats.js';

const N = Number(process.argv[2] ?? process.env.BENCH_MESSAGES ?? 20_000);
const M = Number(process.argv[3] ?? process.env.BENCH_NEGOTIATIONS ?? Math.max(100, Math.round(N / 10)));
const PARTITIONS = 6;
const TASKS = 200;
const BATCH = 500;

function progress(text: string): void {
  process.stderr.write(`[bench] ${text}\n`);
}

const infrastructure = await provisionInfrastructure();
const services: RunningService[] = [];
try {
  const brokers = infrastructure.kafkaBrokers;
  const topics = topicNames(`bench-${Date.now().toString(36)}`);
  const bare = { in: `${topics.prefix}.bare.in`, mid: `${topics.prefix}.bare.mid`, out: `${topics.prefix}.bare.out` };
  await createTopics(
    brokers,
    Object.values(bare).map((topic) => ({ topic, numPartitions: PARTITIONS, replicationFactor: 1 })),
  );
  const env = {
    KAFKA_BROKERS: brokers.join(','),
    SCHEMA_REGISTRY_URL: infrastructure.schemaRegistryUrl,
    BATON_TOPIC_PREFIX: topics.prefix,
    BATON_PARTITIONS: String(PARTITIONS),
    // info, not warn: the supervisor learns a service is up from its service.started line.
    LOG_LEVEL: 'info',
  };
  progress('starting router, bench agent and two bare relays as separate processes');
  const router = startProcess(
    'router',
    'services/router/src/main.ts',
    { ...env, ROUTING_TABLE: 'bench/routing-table.yaml' },
    false,
  );
  services.push(router);
  await router.started;
  services.push(startProcess('bench_agent', 'bench/bench-agent.ts', env, false));
  services.push(
    startProcess('bare_relay_1', 'bench/bare-relay.ts', { ...env, RELAY_FROM: bare.in, RELAY_TO: bare.mid }, false),
  );
  services.push(
    startProcess('bare_relay_2', 'bench/bare-relay.ts', { ...env, RELAY_FROM: bare.mid, RELAY_TO: bare.out }, false),
  );
  await Promise.all(services.map((service) => service.started));

  const registry = new SchemaRegistryClient({ url: infrastructure.schemaRegistryUrl });
  const [codec, outcomes] = await Promise.all([createHandoffCodec(registry), createOutcomeCodec(registry)]);
  progress(`encoding ${N} handoffs over ${TASKS} tasks`);
  const records: OutputRecord[] = [];
  for (let i = 0; i < N; i += 1) {
    const message = buildHandoff({
      metadata: { sender_id: 'bench', recipient_id: 'bench_agent', task_id: `bench-task-${i % TASKS}` },
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: `step ${i}` } },
    });
    records.push(handoffRecord(codec, topics.inbound, message));
  }

  const kafka = createKafka({ brokers, clientId: 'bench' });
  const arrivals = new Map<string, Map<string, number>>();
  for (const topic of [topics.agentInbox('bench_agent'), topics.events, bare.mid, bare.out])
    arrivals.set(topic, new Map());
  const observer = kafka.consumer({ groupId: `bench-observer-${randomUUID()}`, maxWaitTimeInMs: 50 });
  await observer.connect();
  await observer.subscribe({ topics: [...arrivals.keys()], fromBeginning: true });
  await observer.run({
    partitionsConsumedConcurrently: 4,
    eachMessage: async ({ topic, message }) => {
      const now = Date.now();
      if (topic !== topics.events) {
        arrivals.get(topic)?.set(message.headers?.ce_id?.toString() ?? '', now);
        return;
      }
      // The full path ends at the agent's COMPLETED; the router's ROUTED carries the same message_id.
      const event = await outcomes.decode(message.value as Buffer);
      if (event.outcome === 'COMPLETED') arrivals.get(topic)?.set(event.message_id, now);
    },
  });

  const producer = createProducer(kafka, { idempotent: true });
  await producer.connect();
  const publish = async (topic: string): Promise<{ sentAt: Map<string, number>; firstSentAt: number }> => {
    const sentAt = new Map<string, number>();
    const firstSentAt = Date.now();
    for (let start = 0; start < records.length; start += BATCH) {
      const batch = records.slice(start, start + BATCH);
      const now = Date.now();
      for (const record of batch) sentAt.set(record.headers?.ce_id ?? '', now);
      await producer.send({
        topic,
        acks: -1,
        messages: batch.map((record) => ({ key: record.key, value: record.value, headers: record.headers })),
      });
    }
    return { sentAt, firstSentAt };
  };
  const awaitArrivals = async (topic: string, label: string): Promise<void> => {
    const seen = arrivals.get(topic) as Map<string, number>;
    let last = -1;
    while (seen.size < N) {
      if (seen.size !== last) progress(`${label}: ${seen.size}/${N}`);
      last = seen.size;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  const measure = (topic: string, sentAt: Map<string, number>, firstSentAt: number): LatencySummary => {
    const seen = arrivals.get(topic) as Map<string, number>;
    const latencies = [...seen].map(([id, at]) => at - (sentAt.get(id) ?? at));
    return summarise(latencies, firstSentAt, Math.max(...seen.values()));
  };

  progress(`Baton: publishing ${N} handoffs to ${topics.inbound}`);
  const baton = await publish(topics.inbound);
  await awaitArrivals(topics.events, 'Baton full path (outcome events)');
  progress(`bare relay: publishing the same ${N} records to ${bare.in}`);
  const relay = await publish(bare.in);
  await awaitArrivals(bare.out, 'bare relay, two hops');

  const rows = {
    'router hop (Baton)': measure(topics.agentInbox('bench_agent'), baton.sentAt, baton.firstSentAt),
    'one hop (bare relay)': measure(bare.mid, relay.sentAt, relay.firstSentAt),
    'full path (Baton)': measure(topics.events, baton.sentAt, baton.firstSentAt),
    'two hops (bare relay)': measure(bare.out, relay.sentAt, relay.firstSentAt),
  };
  const rss = Object.fromEntries(
    await Promise.all(services.map(async (service) => [service.name, await peakRssMiB(service.child.pid)] as const)),
  );
  await observer.disconnect();
  await producer.disconnect();

  const ratio = (a: LatencySummary, b: LatencySummary) =>
    `throughput ${(a.throughputPerS / b.throughputPerS).toFixed(2)}x, p50 ${(a.p50Ms / b.p50Ms).toFixed(2)}x, p99 ${(a.p99Ms / b.p99Ms).toFixed(2)}x`;
  const report = [
    '',
    `${N} handoffs, ${TASKS} tasks, ${PARTITIONS} partitions, one broker (${infrastructure.source})`,
    ...Object.entries(rows).map(([name, summary]) => latencyLine(name, summary)),
    `router hop / one bare hop:   ${ratio(rows['router hop (Baton)'], rows['one hop (bare relay)'])}`,
    `full path / two bare hops:   ${ratio(rows['full path (Baton)'], rows['two hops (bare relay)'])}`,
    `peak RSS (MiB): ${Object.entries(rss)
      .map(([name, mib]) => `${name} ${mib}`)
      .join(', ')}`,
    '',
  ];
  process.stdout.write(report.join('\n'));
  process.stdout.write(`${JSON.stringify({ event: 'bench.result', messages: N, rows, peakRssMiB: rss })}\n`);

  const negotiated = await benchNegotiations({
    count: M,
    brokers,
    schemaRegistryUrl: infrastructure.schemaRegistryUrl,
    topics,
    env,
    services,
    progress,
  });
  process.stdout.write(negotiated.report.join('\n'));
  process.stdout.write(`${JSON.stringify({ event: 'bench.negotiation', ...negotiated.result })}\n`);
} finally {
  await stopServices(services);
  await infrastructure.stop();
}
