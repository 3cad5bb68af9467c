import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitForBroker, waitForInSyncReplicas, type KafkaSecurity } from '@baton/kafka';
import { classDataSharing, type ClassDataSharing } from './class-data-sharing.js';
import { findFreePorts, retryOnPortClash } from './free-port.js';
import { DEFAULT_INFRA_DIR } from './infra-dir.js';
import { QUICK_START_JVM_OPTIONS, spawnJava, startFailure } from './java-process.js';
import { resolveKafkaClasspath } from './kafka-classpath.js';
import { formatDuration, printProgress, waitProgress, type ProgressListener } from './progress.js';
import { restartable, type ProcessRun } from './restartable.js';
import { renderServerProperties } from './server-properties.js';
import { stopAll, type StartedKafka } from './started-services.js';
import { isolateNodes, type NodeNetwork } from './network-namespaces.js';
import { makeTempDir, type TempDir } from './temp-dir.js';
import { localInfraClient, warmUpCoordinators } from './warm-up.js';

export interface StartLocalKafkaOptions {
  onProgress?: ProgressListener;
  /** The folder holding kafka/pom.xml. @default the repository's infra/ */
  infraDir?: string;
  /** @default 90_000 */
  startTimeoutMs?: number;
  /** A file the broker's own output (warnings and errors) is appended to. */
  logFile?: string;
  /** Aborting it gives up the start: what was started is stopped, and the start rejects. */
  signal?: AbortSignal;
}

/** One node of a local Kafka (broker and controller both), which a test can take away and bring back. */
export interface LocalKafkaNode {
  /** 1 to the number of nodes, as Kafka's metadata names it (a partition's leader, a coordinator). */
  readonly nodeId: number;
  /** Where clients reach it. */
  readonly broker: string;
  /** The JVM's process id while a run of it is up. */
  pid(): number | undefined;
  /**
   * Sends `signal` to the running JVM, if any: SIGKILL to crash it, SIGSTOP to freeze it and SIGCONT
   * to let it go on. A frozen node is let go on before it is stopped or restarted.
   */
  signal(signal: NodeJS.Signals): void;
  /**
   * Stops the node (SIGTERM: a controlled shutdown, or nothing after a SIGKILL) and starts it again
   * on the same ports and data directory. Resolves once it answers metadata requests again.
   */
  restart(): Promise<void>;
  /**
   * Cuts the node off the network, from the other nodes and from every client, while it goes on
   * running; `reconnect` ends the cut. Only on an isolated cluster (StartLocalKafkaClusterOptions).
   */
  cutOff(): Promise<void>;
  reconnect(): Promise<void>;
}

/** A broker, or a cluster of them, that this process started and can also take away and bring back. */
export interface LocalKafka extends StartedKafka {
  readonly nodes: readonly LocalKafkaNode[];
  /** Each node has a network of its own, so that it can be cut off (StartLocalKafkaClusterOptions.isolated). */
  readonly isolated: boolean;
  /**
   * Restarts every node, one after another, as an upgrade does: clients keep their addresses and
   * every committed record, offset and transaction survives. On a cluster each node is restarted
   * once the one before it is back and every partition is fully replicated again, so no write
   * loses its in-sync replicas. Rejects once `stop()` was called, or when another process took
   * one of its ports in between.
   */
  restart(): Promise<void>;
}

export interface StartLocalKafkaClusterOptions extends StartLocalKafkaOptions {
  /** @default 1 */
  nodes?: number;
  /**
   * Each node in a network namespace of its own, at an address of its own on a bridge, so that a
   * node can be cut off the network (network-namespaces.ts: Linux, as root). @default false
   */
  isolated?: boolean;
}

const JVM_OPTIONS = ['-Xms128m', ...QUICK_START_JVM_OPTIONS, '-Djava.awt.headless=true'];

/** How long a rolling restart waits for the partitions to be fully replicated again after each node. */
const IN_SYNC_TIMEOUT_MS = 120_000;

/**
 * Starts a KRaft Kafka from the jars infra/kafka/pom.xml resolves, on free loopback ports, each
 * node with its data in a fresh temporary directory: one node by default; with `nodes`, a cluster
 * whose every node is broker and controller, each its own JVM, replicating as replicationOf says
 * (three copies, two in sync for a write). Resolves once every node answers metadata requests.
 */
export async function startLocalKafka(options: StartLocalKafkaClusterOptions = {}): Promise<LocalKafka> {
  const nodes = options.nodes ?? 1;
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error(`a local Kafka has 1 node or more, not ${nodes}`);
  const networks = options.isolated ? await isolateNodes(nodes) : undefined;
  const hosts = networks?.nodes.map(({ address }) => address);
  try {
    const { kafka } = await launchLocalKafka(options, {
      nodeCount: nodes,
      portCount: 2 * nodes,
      networks: networks?.nodes,
      prepare: async (ports, dirs) => {
        const brokerPorts = ports.slice(0, nodes);
        const controllerPorts = ports.slice(nodes);
        return {
          serverProperties: dirs.map(({ logDir }, index) =>
            renderServerProperties({
              brokerPort: brokerPorts[index] as number,
              controllerPort: controllerPorts[index] as number,
              logDir,
              cluster: { nodeId: index + 1, controllerPorts, ...(hosts && { hosts }) },
            }),
          ),
          brokers: brokerPorts.map((port, index) => `${hosts?.[index] ?? '127.0.0.1'}:${port}`),
          extra: undefined,
        };
      },
    });
    if (networks === undefined) return kafka;
    return { ...kafka, stop: () => kafka.stop().finally(networks.remove) };
  } catch (error) {
    await networks?.remove();
    throw error;
  }
}

/** What a broker's listeners need: ports, and files written into each node's data directory. */
export interface ListenerLayout<T> {
  /** @default 1 */
  nodeCount?: number;
  /** Each node's network namespace, node 1's first, when each has its own. */
  networks?: readonly NodeNetwork[];
  /** Ports for all the nodes together. */
  portCount: number;
  /** Called with free ports and each node's fresh data directory, before the storage is formatted. */
  prepare(ports: number[], dirs: NodeDirs[]): Promise<PreparedListeners<T>>;
}

export interface NodeDirs {
  dataDir: string;
  logDir: string;
}

export interface PreparedListeners<T> {
  /** Each node's server.properties, node 1's first. */
  serverProperties: string[];
  /** Where clients connect to each node, as it advertises itself. */
  brokers: string[];
  /** Where the start waits for each node and warms the cluster up, and how. @default brokers, plaintext */
  waitBrokers?: string[];
  waitSecurity?: KafkaSecurity;
  /** Whatever else the layout made (certificates), handed back with the broker. */
  extra: T;
}

/** How the broker's JVMs were run: for the tools a flavour runs against it later. */
export interface KafkaRuntime {
  kafkaDir: string;
  classpath: string;
  /** JVM options for a short-lived Kafka tool: small heap, the broker's log4j settings. */
  toolJvmOptions: string[];
  /** The first node's data directory. */
  dataDir: string;
  onProgress: ProgressListener;
  logFile: string | undefined;
}

/**
 * The start every local Kafka shares (plaintext or secured, one node or several): the classpath,
 * free ports, data directories, the storage format, the nodes' runs, the wait, the warm-up, stop
 * and restart.
 */
export async function launchLocalKafka<T>(
  options: StartLocalKafkaOptions,
  layout: ListenerLayout<T>,
): Promise<{ kafka: LocalKafka; extra: T; runtime: KafkaRuntime }> {
  const onProgress = options.onProgress ?? printProgress;
  const kafkaDir = join(options.infraDir ?? DEFAULT_INFRA_DIR, 'kafka');
  const classpath = await resolveKafkaClasspath(kafkaDir, onProgress, options.signal);
  const log4jUrl = pathToFileURL(join(kafkaDir, 'log4j.properties')).href;
  // Asked again for each run: the first may record the archive that later runs map.
  const cds = () => classDataSharing(join(kafkaDir, 'target'), 'kafka', classpath);
  return retryOnPortClash(() =>
    startNodes(
      {
        kafkaDir,
        classpath,
        log4jUrl,
        cds,
        onProgress,
        startTimeoutMs: options.startTimeoutMs ?? 90_000,
        logFile: options.logFile,
        signal: options.signal,
      },
      layout,
    ),
  );
}

interface BrokerLaunch {
  kafkaDir: string;
  classpath: string;
  log4jUrl: string;
  cds: () => Promise<ClassDataSharing>;
  onProgress: ProgressListener;
  startTimeoutMs: number;
  logFile: string | undefined;
  /** Gives up the first start; a restart is not given up. */
  signal: AbortSignal | undefined;
}

/** One run of a node's JVM, up and answering. */
interface NodeRun extends ProcessRun {
  readonly pid: number | undefined;
}

/** A node's fixed settings: its files and where it is waited for. */
interface NodeSetup {
  nodeId: number;
  broker: string;
  waitBroker: string;
  propertiesPath: string;
  dataDir: TempDir;
  jvm: string[];
  network: NodeNetwork | undefined;
}

async function startNodes<T>(
  launch: BrokerLaunch,
  layout: ListenerLayout<T>,
): Promise<{ kafka: LocalKafka; extra: T; runtime: KafkaRuntime }> {
  const { kafkaDir, classpath, log4jUrl, cds, onProgress, startTimeoutMs, logFile, signal } = launch;
  signal?.throwIfAborted();
  const startedAt = Date.now();
  const nodeCount = layout.nodeCount ?? 1;
  const ports = await findFreePorts(layout.portCount);
  const dataDirs: TempDir[] = [];
  const removeDataDirs = () => Promise.all(dataDirs.map((dir) => dir.remove())).then(() => undefined);
  let prepared: PreparedListeners<T>;
  try {
    for (let index = 0; index < nodeCount; index += 1) dataDirs.push(await makeTempDir('baton-kafka-'));
    prepared = await layout.prepare(
      ports,
      dataDirs.map((dir) => ({ dataDir: dir.path, logDir: join(dir.path, 'data') })),
    );
    // They may hold the broker's key password: their owner's alone.
    await Promise.all(
      dataDirs.map((dir, index) =>
        writeFile(join(dir.path, 'server.properties'), prepared.serverProperties[index] as string, { mode: 0o600 }),
      ),
    );
  } catch (error) {
    await removeDataDirs();
    throw error;
  }
  const { brokers, waitSecurity } = prepared;
  const waitBrokers = prepared.waitBrokers ?? brokers;
  const setups: NodeSetup[] = dataDirs.map((dataDir, index) => ({
    nodeId: index + 1,
    broker: brokers[index] as string,
    waitBroker: waitBrokers[index] as string,
    propertiesPath: join(dataDir.path, 'server.properties'),
    dataDir,
    network: layout.networks?.[index],
    // The JVM's own temporary files go with the data, so nothing of the run outlives it.
    jvm: [...JVM_OPTIONS, `-Dlog4j.configuration=${log4jUrl}`, `-Djava.io.tmpdir=${dataDir.path}`, '-cp', classpath],
  }));
  const label = (setup: NodeSetup) =>
    nodeCount === 1 ? `the Kafka broker on ${setup.broker}` : `Kafka broker ${setup.nodeId} on ${setup.broker}`;

  /** One run of a node on its formatted data directory, once it answers. */
  const runNode = async (setup: NodeSetup, archive: ClassDataSharing, givenUp?: AbortSignal): Promise<NodeRun> => {
    const broker = spawnJava([...setup.jvm, ...archive.options, 'kafka.Kafka', setup.propertiesPath], {
      logFile,
      netns: setup.network?.namespace,
    });
    const progress = waitProgress(onProgress, label(setup));
    try {
      await waitForBroker([setup.waitBroker], {
        timeoutMs: startTimeoutMs,
        ...(waitSecurity && { security: waitSecurity }),
        signal: givenUp === undefined ? broker.exitSignal : AbortSignal.any([broker.exitSignal, givenUp]),
        onProgress: ({ elapsedMs }) => progress(elapsedMs),
      });
      givenUp?.throwIfAborted();
    } catch (error) {
      const failure = await startFailure(`The local Kafka broker ${setup.nodeId}`, broker, error);
      await archive.settle(await broker.stop());
      throw failure;
    }
    return {
      pid: broker.pid,
      stop: async () => {
        // A frozen JVM handles no SIGTERM until it runs again.
        if (broker.pid !== undefined && !broker.exitSignal.aborted) process.kill(broker.pid, 'SIGCONT');
        await archive.settle(await broker.stop());
      },
    };
  };

  const firstRuns: NodeRun[] = [];
  const archives: ClassDataSharing[] = [];
  try {
    const clusterId = newClusterId();
    // Only a broker records the class-data archive; a format tool maps it once it exists.
    const formatted = await Promise.allSettled(
      setups.map(async (setup) => {
        const archive = await cds();
        archives.push(archive);
        const format = spawnJava(
          [
            ...setup.jvm,
            ...(archive.recording ? [] : archive.options),
            'kafka.tools.StorageTool',
            'format',
            '-t',
            clusterId,
            '-c',
            setup.propertiesPath,
          ],
          { logFile, netns: setup.network?.namespace },
        );
        if ((await format.exited).code !== 0)
          throw await startFailure('The Kafka storage format tool', format, undefined);
        return archive;
      }),
    );
    const formatFailure = formatted.find((result) => result.status === 'rejected');
    if (formatFailure) throw formatFailure.reason;
    signal?.throwIfAborted();
    // Side by side: a cluster's nodes answer only once a majority of its controllers is up.
    const runs = await Promise.allSettled(
      setups.map((setup, index) => runNode(setup, archives[index] as ClassDataSharing, signal)),
    );
    for (const run of runs) if (run.status === 'fulfilled') firstRuns.push(run.value);
    const runFailure = runs.find((run) => run.status === 'rejected');
    if (runFailure) throw runFailure.reason;
    await warmUpCoordinators(waitBrokers, waitSecurity, nodeCount);
    signal?.throwIfAborted();
  } catch (error) {
    // The nodes that ran are stopped, which settles their archives; the rest never ran.
    await Promise.all(firstRuns.map((run) => run.stop().catch(() => undefined)));
    await Promise.all(archives.map((archive) => archive.settle()));
    await removeDataDirs();
    throw error;
  }
  const where =
    nodeCount === 1
      ? `kafka broker up on ${brokers[0]}`
      : `kafka cluster of ${nodeCount} brokers up on ${brokers.join(',')}`;
  onProgress(`${where} in ${formatDuration(Date.now() - startedAt)}`);

  const nodes = setups.map((setup, index) => {
    let current: NodeRun | undefined = firstRuns[index];
    const lifecycle = restartable(
      firstRuns[index] as NodeRun,
      async () => {
        current = undefined;
        const restartedAt = Date.now();
        const run = await runNode(setup, await cds());
        current = run;
        const which = nodeCount === 1 ? `kafka broker` : `kafka broker ${setup.nodeId}`;
        onProgress(`${which} up again on ${setup.broker} in ${formatDuration(Date.now() - restartedAt)}`);
        return run;
      },
      setup.dataDir.remove,
    );
    const node: LocalKafkaNode = {
      nodeId: setup.nodeId,
      broker: setup.broker,
      pid: () => current?.pid,
      signal: (name) => {
        const pid = current?.pid;
        if (pid === undefined) return;
        try {
          process.kill(pid, name);
        } catch (error) {
          // A run that has just ended.
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
        }
      },
      restart: lifecycle.restart,
      cutOff: () => networkOf(setup).cut(),
      reconnect: () => networkOf(setup).reconnect(),
    };
    return { node, lifecycle };
  });

  const rollingRestart = async (): Promise<void> => {
    const kafka = localInfraClient(waitBrokers, waitSecurity);
    for (const { node } of nodes) {
      await node.restart();
      if (nodeCount > 1) await waitForInSyncReplicas(kafka, { timeoutMs: IN_SYNC_TIMEOUT_MS });
    }
  };
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const stoppingAt = Date.now();
      await stopAll(nodes.map(({ lifecycle }) => lifecycle));
      const what = nodeCount === 1 ? `kafka broker on ${brokers[0]}` : `kafka cluster on ${brokers.join(',')}`;
      onProgress(`${what} stopped in ${formatDuration(Date.now() - stoppingAt)}`);
    })();
    return stopping;
  };
  return {
    kafka: {
      brokers,
      nodes: nodes.map(({ node }) => node),
      isolated: layout.networks !== undefined,
      stop,
      restart: rollingRestart,
    },
    extra: prepared.extra,
    runtime: {
      kafkaDir,
      classpath,
      toolJvmOptions: [
        ...QUICK_START_JVM_OPTIONS,
        `-Dlog4j.configuration=${log4jUrl}`,
        `-Djava.io.tmpdir=${(setups[0] as NodeSetup).dataDir.path}`,
      ],
      dataDir: (setups[0] as NodeSetup).dataDir.path,
      onProgress,
      logFile,
    },
  };
}

function networkOf(setup: NodeSetup): NodeNetwork {
  if (setup.network === undefined) throw new Error(`Kafka broker ${setup.nodeId} has no network of its own to cut`);
  return setup.network;
}

/** Kafka's cluster ids are 16 random bytes in URL-safe base64; its CLI cannot take one starting with '-'. */
function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}
