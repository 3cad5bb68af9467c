import { access, mkdir, readFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { isStampCurrent, pomProperty, runMaven, writeStamp } from './maven.js';
import type { ProgressListener } from './progress.js';

/**
 * The classpath of the Kafka broker that infra/kafka/pom.xml pins, resolved by Maven on first use
 * and read from target/classpath.txt afterwards, until the pom changes or a jar goes missing
 * (a cleaned ~/.m2).
 */
export async function resolveKafkaClasspath(
  kafkaDir: string,
  onProgress: ProgressListener,
  signal?: AbortSignal,
): Promise<string> {
  const pomPath = join(kafkaDir, 'pom.xml');
  const targetDir = join(kafkaDir, 'target');
  const classpathPath = join(targetDir, 'classpath.txt');
  const stampPath = join(targetDir, 'classpath.pom-sha256');

  if (await isStampCurrent(pomPath, stampPath)) {
    const classpath = await readClasspath(classpathPath);
    if (classpath !== undefined) return classpath;
  }

  const what = `Kafka ${pomProperty(await readFile(pomPath, 'utf8'), 'kafka.version') ?? ''}`.trim();
  onProgress(`resolving ${what} with Maven (the first run downloads about 65 MB from Maven Central)...`);
  await mkdir(targetDir, { recursive: true });
  await runMaven({
    pomPath,
    goals: ['dependency:build-classpath', `-Dmdep.outputFile=${classpathPath}`],
    what,
    onProgress,
    signal,
  });
  const classpath = await readClasspath(classpathPath);
  if (classpath === undefined) throw new Error(`Maven wrote no usable classpath to ${classpathPath}`);
  await writeStamp(pomPath, stampPath);
  return classpath;
}

async function readClasspath(path: string): Promise<string | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  const jars = text?.trim().split(delimiter) ?? [];
  if (jars.length === 0 || jars[0] === '') return undefined;
  const present = await Promise.all(
    jars.map((jar) =>
      access(jar).then(
        () => true,
        () => false,
      ),
    ),
  );
  return present.every(Boolean) ? jars.join(delimiter) : undefined;
}
