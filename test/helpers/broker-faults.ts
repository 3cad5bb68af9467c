import { setTimeout as sleep } from 'node:timers/promises';
import {
  coordinatorOf,
  createKafka,
  describeReplicas,
  waitForInSyncReplicas,
  type KafkaClient,
  type PartitionReplicas,
} from '@baton/kafka';
import type { LocalKafka, LocalKafkaNode } from '@baton/local-infra';
import type { ChaosDisruption, ChaosRunContext } from './chaos-run.js';

/**
 * How long a broker stays frozen: past the broker's session with its controllers (9 s, Kafka's
 * default), so the cluster fences it and moves its leaders, and past the services' consumer
 * sessions (10 s in tests), so a group whose coordinator it was looks for another.
 */
export const FREEZE_MS = 15_000;

/** How long a broker stays cut off the network: past every session, as a freeze, and long enough for clients to time requests out. */
export const CUT_MS = 30_000;

/** How long the cluster gets to be fully replicated again after a fault. */
const IN_SYNC_TIMEOUT_MS = 180_000;

/**
 * The faults of a cluster of three that a chaos run makes, in this order, once the agent has
 * completed the given shares of the handoffs: the leader of most of the run's partitions killed,
 * the transaction coordinator of most of the router's producers killed, the group coordinator of
 * the agent's group killed, a broker frozen for FREEZE_MS, a rolling restart of every broker, and
 * the leader of most partitions cut off the network for CUT_MS (on an isolated cluster only: the
 * others leave it out). A killed broker is started again at once, as a supervisor would; each fault is over when every
 * partition is fully replicated again, so the next one starts from a whole cluster. Each broker is
 * chosen when its fault comes, from the metadata then.
 */
export function brokerFaults(
  cluster: LocalKafka,
  handoffs: number,
  only: readonly BrokerFault[] = BROKER_FAULTS,
): ChaosDisruption[] {
  const at = (share: number) => Math.floor(handoffs * share);
  const faults: (ChaosDisruption & { id: BrokerFault })[] = [
    {
      id: 'leader',
      name: "SIGKILL the leader of most of the run's partitions",
      atProgress: at(0.1),
      run: (run) => killAndRestart(cluster, run, (replicas) => mostLeading(replicas, run.topics.prefix)),
    },
    {
      id: 'transaction-coordinator',
      name: "SIGKILL the transaction coordinator of most of the router's producers",
      atProgress: at(0.25),
      run: (run) =>
        killAndRestart(cluster, run, (replicas) =>
          mostCommon(
            Array.from({ length: run.partitions }, (_, partition) =>
              // The exactly-once consumer's transactional id per source partition.
              coordinatorOf('transaction', `${run.groups.router}.${run.topics.inbound}.${partition}`, replicas),
            ),
          ),
        ),
    },
    {
      id: 'group-coordinator',
      name: "SIGKILL the group coordinator of the agent's group",
      atProgress: at(0.4),
      run: (run) => killAndRestart(cluster, run, (replicas) => coordinatorOf('group', run.groups.agent, replicas)),
    },
    {
      id: 'freeze',
      name: `freeze the leader of most of the run's partitions (SIGSTOP) for ${FREEZE_MS / 1000} s, then SIGCONT`,
      atProgress: at(0.55),
      run: async (run) => {
        const kafka = adminClient(cluster);
        const node = nodeOf(cluster, mostLeading(await describeReplicas(kafka), run.topics.prefix));
        node.signal('SIGSTOP');
        await sleep(FREEZE_MS);
        node.signal('SIGCONT');
        await inSync(kafka, run);
        return `broker ${node.nodeId}`;
      },
    },
    {
      id: 'rolling-restart',
      name: 'rolling restart of every broker, one after another',
      atProgress: at(0.7),
      run: async () => {
        await cluster.restart();
      },
    },
    {
      id: 'network-cut',
      name: `cut the leader of most of the run's partitions off the network for ${CUT_MS / 1000} s`,
      atProgress: at(0.8),
      run: async (run) => {
        const kafka = adminClient(cluster);
        const node = nodeOf(cluster, mostLeading(await describeReplicas(kafka), run.topics.prefix));
        await node.cutOff();
        await sleep(CUT_MS);
        await node.reconnect();
        await inSync(kafka, run);
        return `broker ${node.nodeId}`;
      },
    },
  ];
  return faults
    .filter((fault) => only.includes(fault.id) && (fault.id !== 'network-cut' || cluster.isolated))
    .map((fault) => ({ name: fault.name, atProgress: fault.atProgress, run: fault.run }));
}

/** The faults brokerFaults makes, by the names CHAOS_FAULTS takes. */
export const BROKER_FAULTS = [
  'leader',
  'transaction-coordinator',
  'group-coordinator',
  'freeze',
  'rolling-restart',
  'network-cut',
] as const;
export type BrokerFault = (typeof BROKER_FAULTS)[number];

async function killAndRestart(
  cluster: LocalKafka,
  run: ChaosRunContext,
  choose: (replicas: PartitionReplicas[]) => number | undefined,
): Promise<string> {
  const kafka = adminClient(cluster);
  const node = nodeOf(cluster, choose(await describeReplicas(kafka)));
  node.signal('SIGKILL');
  await node.restart();
  await inSync(kafka, run);
  return `broker ${node.nodeId}`;
}

async function inSync(kafka: KafkaClient, run: ChaosRunContext): Promise<void> {
  const from = Date.now();
  await waitForInSyncReplicas(kafka, { timeoutMs: IN_SYNC_TIMEOUT_MS });
  run.say(`every partition in sync again after ${((Date.now() - from) / 1000).toFixed(1)}s`);
}

function adminClient(cluster: LocalKafka): KafkaClient {
  return createKafka({ brokers: cluster.brokers, clientId: 'chaos-broker-faults', logLevel: 'nothing' });
}

function nodeOf(cluster: LocalKafka, nodeId: number | undefined): LocalKafkaNode {
  const node = cluster.nodes.find((candidate) => candidate.nodeId === nodeId);
  if (node === undefined) throw new Error(`no broker to take: the metadata named ${nodeId}`);
  return node;
}

/** The node leading most partitions of the topics named `<prefix>.…`. */
export function mostLeading(replicas: readonly PartitionReplicas[], prefix: string): number | undefined {
  return mostCommon(
    replicas.filter((partition) => partition.topic.startsWith(`${prefix}.`)).map((partition) => partition.leader),
  );
}

/** The most frequent of `nodes` that is a node (>= 0), the lowest on a tie; undefined for none. */
export function mostCommon(nodes: readonly (number | undefined)[]): number | undefined {
  const counts = new Map<number, number>();
  for (const node of nodes) if (node !== undefined && node >= 0) counts.set(node, (counts.get(node) ?? 0) + 1);
  let best: number | undefined;
  for (const [node, count] of [...counts].sort(([a], [b]) => a - b))
    if (best === undefined || count > (counts.get(best) as number)) best = node;
  return best;
}
