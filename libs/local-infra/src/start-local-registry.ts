import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { classDataSharing, type ClassDataSharing } from './class-data-sharing.js';
import { findFreePorts, retryOnPortClash } from './free-port.js';
import { DEFAULT_INFRA_DIR } from './infra-dir.js';
import { QUICK_START_JVM_OPTIONS, spawnJava, startFailure, type JavaProcess } from './java-process.js';
import { formatDuration, printProgress, waitProgress, type ProgressListener } from './progress.js';
import { storeGlobalCompatibility } from './global-compatibility.js';
import { ensureRegistryUnpacked } from './registry-distribution.js';
import type { StartedRegistry } from './started-services.js';
import { makeTempDir } from './temp-dir.js';
import { waitForHttpOk } from './wait-for-http.js';

export interface StartLocalRegistryOptions {
  onProgress?: ProgressListener;
  /** The folder holding registry/pom.xml. @default the repository's infra/ */
  infraDir?: string;
  /** @default 90_000 */
  startTimeoutMs?: number;
  /** A file the registry's own output (warnings and errors) is appended to. */
  logFile?: string;
  /** Aborting it gives up the start: what was started is stopped, and the start rejects. */
  signal?: AbortSignal;
}

/** Where Apicurio serves the Confluent Schema Registry API, relative to its root. */
export const CCOMPAT_PATH = '/apis/ccompat/v7';

/**
 * - One pooled connection to the in-memory H2 store instead of the 20 production mode opens.
 * - The JVM options trade peak throughput for a quick start and a small heap, as for the broker.
 * - No scheduled jobs: their checks (log levels, dynamic configuration, download and tenant reapers)
 *   serve features Baton does not use, and one firing while the registry stops logs an ERROR about
 *   the closed connection pool into an otherwise clean stop.
 */
const REGISTRY_OPTIONS = [
  '-Xms64m',
  ...QUICK_START_JVM_OPTIONS,
  '-Dquarkus.datasource.jdbc.initial-size=1',
  '-Dquarkus.datasource.jdbc.min-size=1',
  '-Dquarkus.banner.enabled=false',
  '-Dquarkus.log.level=WARN',
  '-Dquarkus.scheduler.enabled=false',
];

/**
 * Starts Apicurio Registry, unpacked by Maven from infra/registry/pom.xml, on a free loopback port
 * with in-memory storage. Resolves once its Confluent-compatible API lists subjects and holds the
 * global compatibility rule BACKWARD (Confluent's default; without it Apicurio accepts any change
 * to a subject that has no rule of its own).
 */
export async function startLocalRegistry(options: StartLocalRegistryOptions = {}): Promise<StartedRegistry> {
  const onProgress = options.onProgress ?? printProgress;
  const registryDir = join(options.infraDir ?? DEFAULT_INFRA_DIR, 'registry');
  const runnerJar = await ensureRegistryUnpacked(registryDir, onProgress, options.signal);
  // Re-unpacking rewrites the jar at the same path, so its modification time tells builds apart.
  const classpathIdentity = `${runnerJar}:${(await stat(runnerJar)).mtimeMs}`;
  // Asked again for each try: a try given up settles its own, whether or not its JVM ran.
  return retryOnPortClash(async () => {
    const cds = await classDataSharing(join(registryDir, 'target'), 'registry', classpathIdentity);
    return startRegistry(runnerJar, cds, onProgress, options).catch(async (error: unknown) => {
      await cds.settle();
      throw error;
    });
  });
}

async function startRegistry(
  runnerJar: string,
  cds: ClassDataSharing,
  onProgress: ProgressListener,
  { startTimeoutMs = 90_000, logFile, signal }: StartLocalRegistryOptions,
): Promise<StartedRegistry> {
  signal?.throwIfAborted();
  const startedAt = Date.now();
  const [port] = (await findFreePorts(1)) as [number];
  // Vert.x keeps a file cache under java.io.tmpdir; a private one goes away with the registry.
  const tempDir = await makeTempDir('baton-registry-');
  const settings = [`-Djava.io.tmpdir=${tempDir.path}`, '-Dquarkus.http.host=127.0.0.1', `-Dquarkus.http.port=${port}`];

  let registry: JavaProcess | undefined;
  try {
    registry = spawnJava([...REGISTRY_OPTIONS, ...cds.options, ...settings, '-jar', runnerJar], { logFile });
    const url = `http://127.0.0.1:${port}${CCOMPAT_PATH}`;
    try {
      await waitForHttpOk(`${url}/subjects`, {
        timeoutMs: startTimeoutMs,
        signal: signal === undefined ? registry.exitSignal : AbortSignal.any([registry.exitSignal, signal]),
        onProgress: waitProgress(onProgress, `the schema registry on 127.0.0.1:${port}`),
      });
    } catch (error) {
      throw await startFailure('The local schema registry', registry, error);
    }
    await storeGlobalCompatibility(url);
    onProgress(`schema registry up on 127.0.0.1:${port} in ${formatDuration(Date.now() - startedAt)}`);

    const running = registry;
    let stopping: Promise<void> | undefined;
    return {
      url,
      stop: () => {
        const stoppingAt = Date.now();
        stopping ??= running
          .stop()
          .then(cds.settle)
          .then(tempDir.remove)
          .then(() =>
            onProgress(`schema registry on 127.0.0.1:${port} stopped in ${formatDuration(Date.now() - stoppingAt)}`),
          );
        return stopping;
      },
    };
  } catch (error) {
    if (registry) await cds.settle(await registry.stop());
    await tempDir.remove();
    throw error;
  }
}
