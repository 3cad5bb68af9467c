import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { BatonError } from '@baton/errors';
import { onProcessExit } from './exit-guard.js';
import { OutputTail } from './output-tail.js';
import { formatBytes, formatDuration, type ProgressListener } from './progress.js';

const PROGRESS_INTERVAL_MS = 5_000;

export interface MavenRun {
  pomPath: string;
  goals: string[];
  /** What is being fetched, for progress lines: "Kafka 3.9.2". */
  what: string;
  onProgress: ProgressListener;
  /** Aborting it stops Maven (SIGTERM) and rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Runs Maven in batch mode and, while it downloads, prints a line every few seconds with how much
 * it has fetched: the first run pulls tens of megabytes and should not look hung.
 */
export async function runMaven({ pomPath, goals, what, onProgress, signal }: MavenRun): Promise<void> {
  signal?.throwIfAborted();
  const startedAt = Date.now();
  const child = spawn('mvn', ['-B', '-f', pomPath, ...goals], { stdio: ['ignore', 'pipe', 'pipe'] });
  const forget = onProcessExit(() => child.kill('SIGKILL'));
  const abort = (): void => void child.kill('SIGTERM');
  signal?.addEventListener('abort', abort, { once: true });
  const tail = new OutputTail(60);
  const downloads = { files: 0, bytes: 0 };
  const onOutput = (chunk: Buffer): void => {
    for (const line of tail.push(chunk)) {
      const bytes = downloadedBytes(line);
      if (bytes === undefined) continue;
      downloads.files += 1;
      downloads.bytes += bytes;
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const timer = setInterval(() => {
    if (downloads.files === 0) return;
    onProgress(
      `still downloading ${what}: ${downloads.files} files, ${formatBytes(downloads.bytes)} so far (${formatDuration(Date.now() - startedAt)})`,
    );
  }, PROGRESS_INTERVAL_MS);

  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  }).finally(() => {
    clearInterval(timer);
    signal?.removeEventListener('abort', abort);
    forget();
  });
  signal?.throwIfAborted();

  if (exit.code !== 0) {
    const command = `mvn -B -f ${pomPath} ${goals.join(' ')}`;
    const output = exit.error?.message ?? tail.toString();
    throw new BatonError(
      'INFRA_START_FAILED',
      `Maven could not fetch ${what} (exit code ${exit.code}). Command: ${command}\n${output}`,
      {
        cause: exit.error,
        details: { command, output },
      },
    );
  }
  if (downloads.files > 0) {
    onProgress(
      `downloaded ${what}: ${downloads.files} files, ${formatBytes(downloads.bytes)} in ${formatDuration(Date.now() - startedAt)}`,
    );
  }
}

const DOWNLOADED = /^\[INFO\] Downloaded from \S+: \S+ \((\d+(?:\.\d+)?) (B|kB|MB|GB) at /;
const UNIT_BYTES: Record<string, number> = { B: 1, kB: 1_000, MB: 1_000_000, GB: 1_000_000_000 };

/** The size Maven reports for one finished download, from a line of its batch-mode output. */
export function downloadedBytes(line: string): number | undefined {
  const match = DOWNLOADED.exec(line);
  if (match === null) return undefined;
  return Number(match[1]) * (UNIT_BYTES[match[2] ?? 'B'] ?? 1);
}

/** A `<name>value</name>` property of a pom, so progress lines name the version the pom pins. */
export function pomProperty(pomText: string, name: string): string | undefined {
  return new RegExp(`<${name.replace(/\./g, '\\.')}>([^<]+)</`).exec(pomText)?.[1]?.trim();
}

/**
 * Maven's output is reused until the pom changes: a stamp file beside the output holds the hash
 * of the pom it was produced from.
 */
export async function isStampCurrent(pomPath: string, stampPath: string): Promise<boolean> {
  const [pomHash, stamp] = await Promise.all([hashFile(pomPath), readFile(stampPath, 'utf8').catch(() => undefined)]);
  return stamp?.trim() === pomHash;
}

export async function writeStamp(pomPath: string, stampPath: string): Promise<void> {
  await writeFile(stampPath, `${await hashFile(pomPath)}\n`);
}

async function hashFile(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}
