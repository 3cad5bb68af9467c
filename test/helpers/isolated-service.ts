import { spawnService, type SpawnedService } from './service-process.js';

/** What the process inherits from the test's environment: where programs and temp files are, nothing else. */
const INHERITED = ['PATH', 'HOME', 'TMPDIR'] as const;

/**
 * Runs a service's bundle with no variable of the test process but PATH, HOME and TMPDIR, so a
 * KAFKA_* of the test's shell cannot reach it. Resolves once spawned.
 */
export async function runIsolatedService(
  name: string,
  entry: string,
  env: Record<string, string>,
): Promise<SpawnedService> {
  const inherited = Object.fromEntries(
    INHERITED.flatMap((key) => (process.env[key] === undefined ? [] : [[key, process.env[key] as string]])),
  );
  return spawnService(name, entry, { ...inherited, ...env });
}
