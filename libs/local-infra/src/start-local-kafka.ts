import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitForBroker, type KafkaSecurity } from '@baton/kafka';
import { classDataSharing, type ClassDataSharing } from './class-data-sharing.js';
import { findFreePorts, retryOnPortClash } from './free-port.js';
import { DEFAULT_INFRA_DIR } from './infra-dir.js';
import { QUICK_START_JVM_OPTIONS, spawnJava, startFailure } from './java-process.js';
import { resolveKafkaClasspath } from './kafka-classpath.js';
import { formatDuration, printProgress, waitProgress, type ProgressListener } from './progress.js';
import { restartable, type ProcessRun } from './restartable.js';
import { renderServerProperties } from './server-properties.js';
import type { StartedKafka } from './started-services.js';
import { makeTempDir } from './temp-dir.js';
import { warmUpCoordinators } from './warm-up.js';

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

/** A broker this process started, which it can also take away and bring back. */
export interface LocalKafka extends StartedKafka {
  /**
   * Stops the broker (SIGTERM: a controlled shutdown) and starts it again on the same ports and
   * data directory, so clients keep their address and every committed record, offset and
   * transaction survives: an outage and its recovery. Resolves once it answers metadata requests
   * again. Restarts run one at a time; rejects once `stop()` was called, or when another process
   * took one of its ports in between.
   */
  restart(): Promise<void>;
}

const JVM_OPTIONS = ['-Xms128m', ...QUICK_START_JVM_OPTIONS, '-Djava.awt.headless=true'];

/**
 * Starts a single-node KRaft Kafka from the jars infra/kafka/pom.xml resolves, on free loopback
 * ports, with its data in a fresh temporary directory. Resolves once it answers metadata requests.
 */
export async function startLocalKafka(options: StartLocalKafkaOptions = {}): Promise<LocalKafka> {
  const { kafka } = await launchLocalKafka(options, {
    portCount: 2,
    prepare: async (ports, { logDir }) => {
      const [brokerPort, controllerPort] = ports as [number, number];
      return {
        serverProperties: renderServerProperties({ brokerPort, controllerPort, logDir }),
        brokers: [`127.0.0.1:${brokerPort}`],
        extra: undefined,
      };
    },
  });
  return kafka;
}

/** What a broker's listeners need: ports, and files written into its data directory. */
export interface ListenerLayout<T> {
  portCount: number;
  /** Called with free ports and the broker's fresh data directory, before the storage is formatted. */
  prepare(ports: number[], dirs: { dataDir: string; logDir: string }): Promise<PreparedListeners<T>>;
}

export interface PreparedListeners<T> {
  serverProperties: string;
  /** Where clients connect, as the broker advertises it. */
  brokers: string[];
  /** Where the start waits for the broker and warms it up, and how. @default brokers, plaintext */
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
  dataDir: string;
  onProgress: ProgressListener;
  logFile: string | undefined;
}

/**
 * The start every local broker shares (plaintext or secured): the classpath, free ports, a data
 * directory, the storage format, the broker's run, the wait, the warm-up, stop and restart.
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
    startBroker(
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

async function startBroker<T>(
  { kafkaDir, classpath, log4jUrl, cds, onProgress, startTimeoutMs, logFile, signal }: BrokerLaunch,
  layout: ListenerLayout<T>,
): Promise<{ kafka: LocalKafka; extra: T; runtime: KafkaRuntime }> {
  signal?.throwIfAborted();
  const startedAt = Date.now();
  const ports = await findFreePorts(layout.portCount);
  const dataDir = await makeTempDir('baton-kafka-');
  const propertiesPath = join(dataDir.path, 'server.properties');
  let prepared: PreparedListeners<T>;
  try {
    prepared = await layout.prepare(ports, { dataDir: dataDir.path, logDir: join(dataDir.path, 'data') });
    // It may hold the broker's key password: its owner's alone.
    await writeFile(propertiesPath, prepared.serverProperties, { mode: 0o600 });
  } catch (error) {
    await dataDir.remove();
    throw error;
  }
  const { brokers, waitSecurity } = prepared;
  const waitBrokers = prepared.waitBrokers ?? brokers;
  // The JVM's own temporary files go with the data, so nothing of the run outlives it.
  const jvm = [
    ...JVM_OPTIONS,
    `-Dlog4j.configuration=${log4jUrl}`,
    `-Djava.io.tmpdir=${dataDir.path}`,
    '-cp',
    classpath,
  ];

  /** One run of the broker on the formatted data directory, once it answers and `ready` is done. */
  const runBroker = async (
    archive: ClassDataSharing,
    ready = async () => {},
    givenUp?: AbortSignal,
  ): Promise<ProcessRun> => {
    const broker = spawnJava([...jvm, ...archive.options, 'kafka.Kafka', propertiesPath], { logFile });
    const progress = waitProgress(onProgress, `the Kafka broker on ${brokers[0]}`);
    try {
      await waitForBroker(waitBrokers, {
        timeoutMs: startTimeoutMs,
        ...(waitSecurity && { security: waitSecurity }),
        signal: givenUp === undefined ? broker.exitSignal : AbortSignal.any([broker.exitSignal, givenUp]),
        onProgress: ({ elapsedMs }) => progress(elapsedMs),
      });
      await ready();
      givenUp?.throwIfAborted();
    } catch (error) {
      const failure = await startFailure('The local Kafka broker', broker, error);
      await archive.settle(await broker.stop());
      throw failure;
    }
    return { stop: async () => archive.settle(await broker.stop()) };
  };

  let first: ProcessRun;
  let archive: ClassDataSharing | undefined;
  try {
    archive = await cds();
    // Only the broker records the class-data archive; the format tool maps it once it exists.
    const format = spawnJava(
      [
        ...jvm,
        ...(archive.recording ? [] : archive.options),
        'kafka.tools.StorageTool',
        'format',
        '-t',
        newClusterId(),
        '-c',
        propertiesPath,
      ],
      { logFile },
    );
    if ((await format.exited).code !== 0) throw await startFailure('The Kafka storage format tool', format, undefined);
    signal?.throwIfAborted();
    first = await runBroker(archive, () => warmUpCoordinators(waitBrokers, waitSecurity), signal);
  } catch (error) {
    // The broker never ran, or runBroker settled it: either way no archive of this run is kept.
    await archive?.settle();
    await dataDir.remove();
    throw error;
  }
  onProgress(`kafka broker up on ${brokers[0]} in ${formatDuration(Date.now() - startedAt)}`);

  const lifecycle = restartable(
    first,
    async () => {
      const restartedAt = Date.now();
      const run = await runBroker(await cds());
      onProgress(`kafka broker up again on ${brokers[0]} in ${formatDuration(Date.now() - restartedAt)}`);
      return run;
    },
    dataDir.remove,
  );
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const stoppingAt = Date.now();
      await lifecycle.stop();
      onProgress(`kafka broker on ${brokers[0]} stopped in ${formatDuration(Date.now() - stoppingAt)}`);
    })();
    return stopping;
  };
  return {
    kafka: { brokers, stop, restart: lifecycle.restart },
    extra: prepared.extra,
    runtime: {
      kafkaDir,
      classpath,
      toolJvmOptions: [
        ...QUICK_START_JVM_OPTIONS,
        `-Dlog4j.configuration=${log4jUrl}`,
        `-Djava.io.tmpdir=${dataDir.path}`,
      ],
      dataDir: dataDir.path,
      onProgress,
      logFile,
    },
  };
}

/** Kafka's cluster ids are 16 random bytes in URL-safe base64; its CLI cannot take one starting with '-'. */
function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}
