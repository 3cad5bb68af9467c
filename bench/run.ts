/**
 * `npm run bench [N] [M]`: the whole story in one run on one broker (issue 10, item 5).
 *
 * 1. Signature costs per message (issue 13), in this process, before anything else runs: canonical
 *    JSON, signing and verifying against the codec's Avro encode and decode (signature-costs.ts).
 * 2. Throughput: N handoffs through Baton (router hop, full path), then the same bytes through
 *    three kafkajs relays (per record, per batch, transaction per batch), one and two hops each.
 * 3. Light load: 20 handoffs a second for 30 s through the full path, latency per hop.
 * 4. Negotiated handoffs: M (default N/10, at least 100), with the tracker (negotiation-bench.ts).
 * 5. Slow handler: one agent whose handler waits 2 s, against its ideal.
 * 6. Signatures on the full path (issue 13): N handoffs through a fresh router and agent with
 *    signatures off, then N through a fresh pair requiring and signing them; throughput and CPU
 *    per handoff of each (signature-full-path.ts).
 * 7. With `--brokers 3` (or BENCH_BROKERS=3): the full path on a cluster of three brokers of its
 *    own beside the bench's broker, in paired rounds, and the light load on the three
 *    (cluster-path.ts).
 * 8. Peak RSS of every process the bench ran, then everything is stopped.
 * 9. The task list's search over 100,000 tasks, in this process (task-search-bench.ts).
 * 10. Idle CPU of the `npm start` fleet and the broker (idle-cpu.ts), on topics of its own.
 *
 * Progress goes to stderr; stdout gets the readable report, then one JSON line with every row
 * (`event: bench.result`, see bench-result.ts). Every wait has a deadline: a bench that cannot
 * finish fails saying which wait it was.
 */
import { cpus, loadavg } from 'node:os';
import { createKafka, createTopics, kafkaSecurityFromEnv, RecordProducer } from '@baton/kafka';
import { SchemaRegistryClient, createHandoffCodec } from '@baton/wire';
import { ArrivalObserver } from './arrival-observer.js';
import { benchArgs } from './bench-args.js';
import { startBenchRun } from './bench-processes.js';
import type { BenchResult, IdleRow } from './bench-result.js';
import { withDeadline } from './deadline.js';
import { benchLightLoad } from './light-load-bench.js';
import { NEGOTIATED_TASK_PREFIX, benchNegotiations } from './negotiation-bench.js';
import { RELAY_MODES } from './relay-modes.js';
import { deleteRunTopics } from './run-topics.js';
import { formatReport } from './report.js';
import { measureSignatureCosts } from './signature-costs.js';
import { benchSignedPath } from './signature-full-path.js';
import { benchSlowHandler } from './slow-handler-bench.js';
import { TASK_SEARCH_TASKS, benchTaskSearch } from './task-search-bench.js';
import { benchClusterPath } from './cluster-path.js';
import { benchRatios, checkTargets } from './targets.js';
import { benchExactlyOncePairs } from './exactly-once-pairs.js';
import { THROUGHPUT_WARMUP, benchThroughput, relayTopics, statusUpdateRecords } from './throughput-bench.js';
// ---- the idle row: idle-cpu.ts is its own module (its own author); only this import and measureIdle use it.
import { measureIdleCpu } from './idle-cpu.js';
import { AGENT, PARTITIONS, TASKS, progress } from './bench-run-settings.js';

const args = benchArgs(process.argv.slice(2), process.env);
const date = new Date().toISOString();
const loadAverageBefore = loadavg()[0] ?? Number.NaN;

/** The idle row, measured last with nothing else of the bench running. */
async function measureIdle(brokers: string[], schemaRegistryUrl: string): Promise<IdleRow> {
  if (args.idleSeconds === 0) return { skipped: 'BENCH_IDLE_SECONDS=0' };
  progress('idle CPU: measureIdleCpu starts the npm start fleet on topics of its own, then measures it idle');
  return measureIdleCpu({ brokers, schemaRegistryUrl, seconds: args.idleSeconds, progress });
}

const { infrastructure, brokers, topics, processes } = await startBenchRun(PARTITIONS, progress);
const kafka = createKafka({ brokers, clientId: 'bench', security: kafkaSecurityFromEnv(process.env) });
const producer = new RecordProducer(kafka);
let observer: ArrivalObserver | undefined;
try {
  const registry = new SchemaRegistryClient({ url: infrastructure.schemaRegistryUrl });
  // First, while only the broker runs: these figures are of this process alone.
  progress('signature costs per message: canonical JSON, sign and verify against Avro encode and decode');
  const signatureCosts = await measureSignatureCosts({ registry, progress });

  const relays = RELAY_MODES.map((mode) => relayTopics(topics.prefix, mode));
  await createTopics(
    kafka,
    relays
      .flatMap((chain) => Object.values(chain))
      .map((topic) => ({ topic, numPartitions: PARTITIONS, replicationFactor: 1 })),
  );
  progress(`starting the router and ${AGENT}, each its own process, on topics ${topics.prefix}.*`);
  const router = await processes.start('router', 'services/router/src/main.ts');
  const agent = await processes.start(AGENT, 'bench/bench-agent.ts');

  const codec = await createHandoffCodec(registry);
  observer = new ArrivalObserver({
    brokers,
    recordTopics: [topics.agentInbox(AGENT), ...relays.flatMap((chain) => [chain.mid, chain.out])],
    eventsTopic: topics.events,
    registry,
    skipEventKeyPrefix: NEGOTIATED_TASK_PREFIX,
  });
  await withDeadline(observer.start(), 'arrival observer joining its group', 120_000, progress);
  await producer.connect();

  progress(`encoding ${args.messages} handoffs over ${TASKS} tasks`);
  const records = statusUpdateRecords(codec, topics.inbound, AGENT, args.messages, TASKS, 'bench-task');
  const warmup = statusUpdateRecords(codec, topics.inbound, AGENT, THROUGHPUT_WARMUP, TASKS, 'bench-warmup');
  const throughput = await benchThroughput({
    records,
    warmup,
    topics,
    agentId: AGENT,
    producer,
    observer,
    processes,
    progress,
  });
  const lightLoad = await benchLightLoad({ brokers, codec, topics, agentId: AGENT, observer, progress });
  const { rows: negotiatedRows, ...negotiation } = await benchNegotiations({
    count: args.negotiations,
    brokers,
    schemaRegistryUrl: infrastructure.schemaRegistryUrl,
    topics,
    processes,
    progress,
  });
  const slow = await benchSlowHandler({
    codec,
    topics,
    partitions: PARTITIONS,
    env: processes.env,
    producer,
    observer,
    processes,
    progress,
  });
  const { summary: slowSummary, ...slowFacts } = slow;
  progress('stopping the router and bench_agent before the paired rounds');
  await Promise.all([processes.stop(agent), processes.stop(router)]);
  const signedPath = await benchSignedPath({
    brokers,
    topicPrefix: topics.prefix,
    count: args.messages,
    tasks: TASKS,
    registry,
    agentId: AGENT,
    producer,
    processes,
    progress,
  });

  const pairs = await benchExactlyOncePairs({
    brokers,
    kafka,
    codec,
    registry,
    topicPrefix: topics.prefix,
    partitions: PARTITIONS,
    count: args.messages,
    tasks: TASKS,
    agentId: AGENT,
    producer,
    processes,
    progress,
  });

  const cluster =
    args.brokers > 1
      ? await benchClusterPath({
          brokers,
          nodes: args.brokers,
          topicPrefix: topics.prefix,
          count: args.messages,
          tasks: TASKS,
          registry,
          codec,
          agentId: AGENT,
          processes,
          progress,
        })
      : undefined;

  const peakRssMiB = await processes.peakRssMiB();
  const batonServices = Object.keys(peakRssMiB).filter((name) => !name.startsWith('relay_'));
  const undecodableEvents = observer.undecodableEvents;
  progress('stopping the bench processes before the idle row');
  await observer.stop();
  observer = undefined;
  await producer.disconnect();
  await processes.stopAll();
  // The idle row's broker then carries only the idle fleet's topics, as `npm start`'s does.
  await deleteRunTopics(brokers, topics.prefix, progress);

  const taskSearch = benchTaskSearch(TASK_SEARCH_TASKS, progress);
  const idle = await measureIdle(brokers, infrastructure.schemaRegistryUrl);

  const rows = {
    ...throughput,
    ...negotiatedRows,
    slowHandler: slowSummary,
    'lightLoad.routerHop': lightLoad.routerHop,
    'lightLoad.agentHop': lightLoad.agentHop,
    'lightLoad.fullPath': lightLoad.fullPath,
  };
  const targetInputs = {
    rows,
    slowHandlerIdealPerS: slow.idealPerS,
    pairedRatios: pairs.median,
    signedPathRatio: signedPath.ratios.throughput ?? undefined,
    taskSearchMs: Math.max(...taskSearch.rows.map((row) => row.medianMs)),
    idleCpuPercent: 'skipped' in idle ? undefined : idle.cpuPercent,
    peakRssMiB,
    batonServices,
  };
  const result: BenchResult = {
    event: 'bench.result',
    date,
    machine: { cpus: cpus().length, loadAverageBefore, loadAverageAfter: loadavg()[0] ?? Number.NaN },
    infrastructure: infrastructure.source,
    config: {
      messages: args.messages,
      throughputWarmup: THROUGHPUT_WARMUP,
      negotiations: args.negotiations,
      partitions: PARTITIONS,
      tasks: TASKS,
    },
    rows,
    exactlyOncePairs: pairs,
    negotiation,
    slowHandler: slowFacts,
    lightLoad: { ratePerS: lightLoad.ratePerS, seconds: lightLoad.seconds, pacing: lightLoad.pacing },
    idle,
    signatures: { costs: signatureCosts, fullPath: signedPath },
    taskSearch,
    ...(cluster && { cluster }),
    peakRssMiB,
    ratios: benchRatios(targetInputs),
    targets: checkTargets(targetInputs),
    undecodableEvents,
  };
  process.stdout.write(formatReport(result).join('\n'));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  progress(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await observer?.stop().catch(() => undefined);
  await producer.disconnect().catch(() => undefined);
  await processes.stopAll();
  // Again after a run that failed before the idle row; finding none to delete is quick.
  await deleteRunTopics(brokers, topics.prefix, progress);
  await infrastructure.stop();
}
