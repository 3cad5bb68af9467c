/**
 * The full path on a cluster of three brokers beside one broker (`npm run bench -- --brokers 3`):
 * a router and a bench agent on the bench's broker (replication 1), and another pair on a cluster
 * of three KRaft nodes this module starts (every topic replicated three times, two in sync, acks
 * all), take turns in paired rounds of N handoffs, as the signature rows do (path-rounds.ts). Per
 * pass: throughput and latency to COMPLETED, and CPU per handoff of the router, the agent and the
 * brokers (the one JVM, or the three together): on this machine the three JVMs share its cores with
 * Baton, so the CPU rows say what the throughput ratio is made of. Then the light-load row on the
 * three brokers.
 */
import { createKafka, RecordProducer, topicNames, type TopicNames } from '@baton/kafka';
import { replicationOf, startLocalKafka, type LocalKafka } from '@baton/local-infra';
import type { HandoffCodec, SchemaRegistryClient } from '@baton/wire';
import type { RunningService } from '../scripts/lib/service-supervisor.js';
import { ArrivalObserver } from './arrival-observer.js';
import type { BenchProcesses } from './bench-processes.js';
import { withDeadline } from './deadline.js';
import { CLUSTER_ROUNDS, type ClusterPathResult, type ClusterRound, type ClusterSide } from './cluster-figures.js';
import { benchLightLoad } from './light-load-bench.js';
import { pathPass } from './path-pass.js';
import { medianRound, pathRatios, type PathRun } from './path-rounds.js';
import { findListeningPid } from './proc-stat.js';

export interface ClusterPathOptions {
  /** The bench's own broker: the side of one. */
  brokers: string[];
  /** Brokers of the cluster; 3 unless told otherwise. */
  nodes: number;
  topicPrefix: string;
  count: number;
  tasks: number;
  registry: SchemaRegistryClient;
  codec: HandoffCodec;
  agentId: string;
  processes: BenchProcesses;
  progress(text: string): void;
}

interface Side {
  name: ClusterSide;
  topics: TopicNames;
  producer: RecordProducer;
  observer: ArrivalObserver;
  router: RunningService;
  agent: RunningService;
  /** The pid of each broker JVM of the side. */
  brokerPids(): number[];
}

export async function benchClusterPath(options: ClusterPathOptions): Promise<ClusterPathResult> {
  const { progress, count } = options;
  const { replicationFactor, minInsyncReplicas } = replicationOf(options.nodes);
  progress(`brokers: starting a cluster of ${options.nodes} for the full path beside the bench's broker`);
  const cluster = await startLocalKafka({ nodes: options.nodes, onProgress: progress });
  const sides: Side[] = [];
  try {
    const onePid = await findListeningPid(Number(options.brokers[0]?.split(':').at(-1)));
    sides.push(await startSide(options, 'one', options.brokers, 1, () => (onePid === undefined ? [] : [onePid])));
    sides.push(await startSide(options, 'cluster', cluster.brokers, replicationFactor, () => clusterPids(cluster)));
    const [one, clustered] = sides as [Side, Side];
    progress(`brokers: ${count} handoffs of warm-up through each pair`);
    await pass(options, one, 'warmup');
    await pass(options, clustered, 'warmup');
    const rounds: ClusterRound[] = [];
    for (let index = 0; index < CLUSTER_ROUNDS; index += 1) {
      const order = index % 2 === 0 ? [one, clustered] : [clustered, one];
      progress(`brokers: round ${index + 1} of ${CLUSTER_ROUNDS}, ${order[0]!.name} first`);
      const runs = new Map<ClusterSide, PathRun>();
      for (const side of order) runs.set(side.name, await pass(options, side, `round-${index + 1}`));
      const [oneRun, clusterRun] = [runs.get('one') as PathRun, runs.get('cluster') as PathRun];
      rounds.push({ first: order[0]!.name, one: oneRun, cluster: clusterRun, ratios: pathRatios(oneRun, clusterRun) });
    }
    const median = medianRound(rounds);
    const lightLoad = await benchLightLoad({
      brokers: cluster.brokers,
      codec: options.codec,
      topics: clustered.topics,
      agentId: options.agentId,
      observer: clustered.observer,
      progress,
    });
    return {
      brokers: options.nodes,
      replicationFactor,
      minInsyncReplicas,
      handoffs: count,
      rounds,
      one: median.one,
      cluster: median.cluster,
      ratios: median.ratios,
      lightLoad,
    };
  } finally {
    for (const side of sides) {
      await side.observer.stop().catch(() => undefined);
      await side.producer.disconnect().catch(() => undefined);
      await Promise.all([options.processes.stop(side.router), options.processes.stop(side.agent)]);
    }
    await cluster.stop();
  }
}

/** A router and a bench agent on `brokers`, on topics of their own, with an observer and a producer. */
async function startSide(
  options: ClusterPathOptions,
  name: ClusterSide,
  brokers: string[],
  replicationFactor: number,
  brokerPids: () => number[],
): Promise<Side> {
  const { processes, agentId, progress } = options;
  const topics = topicNames(`${options.topicPrefix}-brokers-${name}`);
  const env = {
    KAFKA_BROKERS: brokers.join(','),
    BATON_TOPIC_PREFIX: topics.prefix,
    BATON_REPLICATION_FACTOR: String(replicationFactor),
  };
  progress(
    `brokers ${name}: starting a router and ${agentId} on ${topics.prefix}.* (replication ${replicationFactor})`,
  );
  // The agent first, so the router reads its registration before it routes.
  const agent = await processes.start(`${agentId}_brokers_${name}`, 'bench/bench-agent.ts', env);
  const router = await processes.start(`router_brokers_${name}`, 'services/router/src/main.ts', env);
  const observer = new ArrivalObserver({
    brokers,
    recordTopics: [topics.agentInbox(agentId)],
    eventsTopic: topics.events,
    registry: options.registry,
  });
  const producer = new RecordProducer(createKafka({ brokers, clientId: `bench-brokers-${name}` }));
  const side: Side = { name, topics, producer, observer, router, agent, brokerPids };
  await withDeadline(observer.start(), `brokers ${name} observer joining its group`, 120_000, progress);
  await producer.connect();
  return side;
}

function clusterPids(cluster: LocalKafka): number[] {
  return cluster.nodes.flatMap((node) => {
    const pid = node.pid();
    return pid === undefined ? [] : [pid];
  });
}

/** A pass through one side, the CPU of its brokers summed as `brokers`. */
async function pass(options: ClusterPathOptions, side: Side, label: string): Promise<PathRun> {
  const brokerRoots = side.brokerPids().map((pid, index): [string, number] => [`broker-${index + 1}`, pid]);
  const run = await pathPass({
    label: `bench-brokers-${side.name}-${label}`,
    producer: side.producer,
    codec: options.codec,
    topics: side.topics,
    observer: side.observer,
    agentId: options.agentId,
    count: options.count,
    tasks: options.tasks,
    roots: new Map([
      ['router', side.router.child.pid as number],
      [options.agentId, side.agent.child.pid as number],
      ...brokerRoots,
    ]),
    progress: options.progress,
  });
  const cpu: Record<string, number> = { brokers: 0 };
  for (const [name, us] of Object.entries(run.cpuUsPerHandoff)) {
    if (name.startsWith('broker-')) cpu.brokers = (cpu.brokers as number) + us;
    else cpu[name] = us;
  }
  return { fullPath: run.fullPath, cpuUsPerHandoff: cpu };
}
