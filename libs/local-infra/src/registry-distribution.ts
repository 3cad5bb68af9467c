import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isStampCurrent, pomProperty, runMaven, writeStamp } from './maven.js';
import type { ProgressListener } from './progress.js';

/**
 * The runner jar of the Apicurio Registry build that infra/registry/pom.xml pins, unpacked by
 * Maven into target/apicurio on first use and reused until the pom changes.
 */
export async function ensureRegistryUnpacked(
  registryDir: string,
  onProgress: ProgressListener,
  signal?: AbortSignal,
): Promise<string> {
  const pomPath = join(registryDir, 'pom.xml');
  const unpackDir = join(registryDir, 'target', 'apicurio');
  const stampPath = join(registryDir, 'target', 'apicurio.pom-sha256');

  if (await isStampCurrent(pomPath, stampPath)) {
    const runnerJar = await findRunnerJar(unpackDir);
    if (runnerJar !== undefined) return runnerJar;
  }

  const what = `Apicurio Registry ${pomProperty(await readFile(pomPath, 'utf8'), 'apicurio.version') ?? ''}`.trim();
  onProgress(`fetching ${what} with Maven (the first run downloads about 150 MB from Maven Central)...`);
  // A different version unpacks beside the old one: start empty so exactly one runner jar remains.
  await rm(unpackDir, { recursive: true, force: true });
  await runMaven({ pomPath, goals: ['dependency:unpack'], what, onProgress, signal });
  const runnerJar = await findRunnerJar(unpackDir);
  if (runnerJar === undefined) throw new Error(`Maven unpacked no *-runner.jar into ${unpackDir}`);
  await writeStamp(pomPath, stampPath);
  return runnerJar;
}

async function findRunnerJar(dir: string): Promise<string | undefined> {
  const names = await readdir(dir).catch(() => []);
  const runner = names.find((name) => name.endsWith('-runner.jar'));
  return runner === undefined ? undefined : join(dir, runner);
}
