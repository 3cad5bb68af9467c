import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { classDataSharing } from './class-data-sharing.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-cds-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CLASSPATH = 'a.jar:b.jar';

/** The file a recording JVM would write its archive to as it exits. */
function recordingPathOf(options: string[]): string {
  const option = options.find((value) => value.startsWith('-XX:ArchiveClassesAtExit='));
  expect(option).toBeDefined();
  return option!.slice('-XX:ArchiveClassesAtExit='.length);
}

test('one JVM at a time records: another started meanwhile runs without class-data sharing', async () => {
  const first = await classDataSharing(dir, 'registry', CLASSPATH);
  expect(first.recording).toBe(true);
  const second = await classDataSharing(dir, 'registry', CLASSPATH);
  expect(second).toMatchObject({ recording: false, options: [] });
  // Another archive (another name or classpath) has a lock of its own.
  expect((await classDataSharing(dir, 'kafka', CLASSPATH)).recording).toBe(true);

  // The recording JVM exited without writing an archive (it failed to start): the next may record.
  await first.settle({ code: 1, signal: null });
  expect((await readdir(dir)).filter((file) => file.startsWith('registry-'))).toEqual([]);
  expect((await classDataSharing(dir, 'registry', CLASSPATH)).recording).toBe(true);
});

test('a recorded archive is published as the JVM exits, outdated ones go, and later runs map it', async () => {
  const recorder = await classDataSharing(dir, 'registry', CLASSPATH);
  await writeFile(join(dir, 'registry-0000000000000000.jsa'), 'an archive of an older classpath or JVM');
  await writeFile(recordingPathOf(recorder.options), 'archive');
  await recorder.settle({ code: 143, signal: null });
  // Only the first settle counts.
  await recorder.settle();

  const files = await readdir(dir);
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/^registry-[0-9a-f]{16}\.jsa$/);
  const mapper = await classDataSharing(dir, 'registry', CLASSPATH);
  expect(mapper.recording).toBe(false);
  expect(mapper.options).toEqual(['-Xlog:cds*=off', `-XX:SharedArchiveFile=${join(dir, files[0]!)}`]);
});

test('a JVM killed outright leaves no archive: it may have been killed while writing it', async () => {
  const recorder = await classDataSharing(dir, 'kafka', CLASSPATH);
  await writeFile(recordingPathOf(recorder.options), 'half an archive');
  await recorder.settle({ code: null, signal: 'SIGKILL' });
  expect(await readdir(dir)).toEqual([]);
});

/** The lock file a recorder holds, by its name. */
async function lockFile(): Promise<string> {
  const locks = (await readdir(dir)).filter((file) => file.endsWith('.jsa.lock'));
  expect(locks).toHaveLength(1);
  return join(dir, locks[0]!);
}

test("a lock whose process is gone is taken over; a live process's is not", async () => {
  const recorder = await classDataSharing(dir, 'registry', CLASSPATH);
  const lock = await lockFile();
  await recorder.settle();

  const exited = spawnSync(process.execPath, ['-e', '']);
  expect(exited.status).toBe(0);
  await writeFile(lock, String(exited.pid));
  const taker = await classDataSharing(dir, 'registry', CLASSPATH);
  expect(taker.recording).toBe(true);

  // Its process gone too, the taker's recording is removed by the next to take the lock; the
  // recordings of other archives stay.
  await writeFile(recordingPathOf(taker.options), 'half an archive');
  const other = 'kafka-0000000000000000.jsa.0123456789ab.tmp';
  await writeFile(join(dir, other), "another archive's recording");
  await writeFile(lock, String(exited.pid));
  const next = await classDataSharing(dir, 'registry', CLASSPATH);
  expect(next.recording).toBe(true);
  expect((await readdir(dir)).filter((file) => file.endsWith('.tmp'))).toEqual([other]);

  // This test's own parent is alive.
  await writeFile(lock, String(process.ppid));
  expect((await classDataSharing(dir, 'registry', CLASSPATH)).recording).toBe(false);
});

test('an empty lock is a holder between its create and its write, until it has stayed empty 10 s', async () => {
  const recorder = await classDataSharing(dir, 'registry', CLASSPATH);
  const lock = await lockFile();
  await recorder.settle();

  await writeFile(lock, '');
  expect((await classDataSharing(dir, 'registry', CLASSPATH)).recording).toBe(false);
  const elevenSecondsAgo = new Date(Date.now() - 11_000);
  await utimes(lock, elevenSecondsAgo, elevenSecondsAgo);
  expect((await classDataSharing(dir, 'registry', CLASSPATH)).recording).toBe(true);
});
