import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, readFile, readdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, delimiter, join } from 'node:path';
import type { ProcessExit } from './java-process.js';
import { isAlive } from './process-alive.js';

/**
 * Application class-data sharing: the first run of a JVM writes the classes it loaded to an
 * archive as it exits, and later runs map that archive instead of loading and verifying the
 * classes again. On 2 cores that cuts start-up by a third to a half: the registry from 3.9 s to
 * 1.7 s, the broker with its storage format from 4.0 s to 2.6 s. An archive fits one classpath on one JVM build only, so its file name
 * carries a hash of both; a JVM that cannot use an archive ignores it and starts as usual.
 *
 * Writing the archive makes that first JVM's stop take seconds (the registry 5.3 s, the broker
 * 4.5 s, on an idle machine; more under load). So one JVM at a time records an archive: while a
 * live process holds the recording lock, a JVM started elsewhere starts without class-data sharing
 * rather than record the same archive and stop slowly too. A test run's shared broker and
 * registry record, and the `npm start` runs its tests make meanwhile stop at their usual pace.
 */
export interface ClassDataSharing {
  /** Options for the JVM that maps the archive, or records one when there is none yet. */
  options: string[];
  /** True when this run records the archive rather than maps it. */
  recording: boolean;
  /**
   * Once the JVM has exited, or without an exit when it never ran: publish the archive it
   * recorded, or drop a torn one, and let the next JVM record. Only the first call counts.
   */
  settle(exit?: ProcessExit): Promise<void>;
}

/**
 * Recording prints a warning per class it cannot archive, hundreds of lines as the JVM exits, which
 * would bury the reason a start failed; mapping warns when it cannot use an archive.
 */
const QUIET = '-Xlog:cds*=off';

export async function classDataSharing(
  archiveDir: string,
  name: string,
  classpathIdentity: string,
): Promise<ClassDataSharing> {
  const key = createHash('sha256')
    .update(classpathIdentity)
    .update(await javaIdentity())
    .digest('hex')
    .slice(0, 16);
  const archive = join(archiveDir, `${name}-${key}.jsa`);
  if (await exists(archive))
    return { options: [QUIET, `-XX:SharedArchiveFile=${archive}`], recording: false, settle: async () => {} };
  const lock = `${archive}.lock`;
  await mkdir(archiveDir, { recursive: true });
  if (!(await takeRecordingLock(lock))) return { options: [], recording: false, settle: async () => {} };
  await removeUnfinishedRecordings(archiveDir, archive);

  // Each recording has a name of its own (two can meet when both take over a dead holder's lock);
  // the rename that publishes is atomic, so no JVM maps a half-written archive.
  const recordingPath = `${archive}.${randomBytes(6).toString('hex')}.tmp`;
  let settled: Promise<void> | undefined;
  return {
    options: [QUIET, `-XX:ArchiveClassesAtExit=${recordingPath}`],
    recording: true,
    settle: (exit) =>
      (settled ??= (async () => {
        try {
          // A JVM killed outright may have been killed while writing the archive.
          if (exit === undefined || exit.signal === 'SIGKILL' || !(await exists(recordingPath))) {
            await rm(recordingPath, { force: true });
            return;
          }
          await rename(recordingPath, archive);
          await removeOutdatedArchives(archiveDir, name, archive);
        } finally {
          await rm(lock, { force: true });
        }
      })()),
  };
}

/**
 * Creates the lock holding this process's pid, or takes over one whose process is gone. False when
 * a live process holds it.
 */
async function takeRecordingLock(lock: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!(await isStale(lock))) return false;
    if (attempt === 0) await rm(lock, { force: true });
  }
  return false;
}

/** How long an empty lock may be a holder's between its create and its write. */
const EMPTY_LOCK_GRACE_MS = 10_000;

/** Its holder has exited, or it has stayed empty longer than a write takes. */
async function isStale(lock: string): Promise<boolean> {
  const [content, status] = await Promise.all([readFile(lock, 'utf8'), stat(lock)]).catch(() => [undefined, undefined]);
  // Removed meanwhile: the next create decides.
  if (content === undefined || status === undefined) return true;
  const holder = Number(content);
  if (content !== '' && Number.isInteger(holder) && holder > 0) return !isAlive(holder);
  return Date.now() - status.mtimeMs > EMPTY_LOCK_GRACE_MS;
}

/**
 * Recordings of this archive that no one will publish: the lock is this process's, so they are
 * those of holders that are gone (a process killed before its JVM exited leaves its recording, tens
 * of megabytes, under a name of its own).
 */
async function removeUnfinishedRecordings(archiveDir: string, archive: string): Promise<void> {
  const prefix = `${basename(archive)}.`;
  const unfinished = (await readdir(archiveDir)).filter((file) => file.startsWith(prefix) && file.endsWith('.tmp'));
  await Promise.all(unfinished.map((file) => rm(join(archiveDir, file), { force: true })));
}

async function removeOutdatedArchives(archiveDir: string, name: string, current: string): Promise<void> {
  const outdated = (await readdir(archiveDir)).filter(
    (file) => file.startsWith(`${name}-`) && file.endsWith('.jsa') && join(archiveDir, file) !== current,
  );
  await Promise.all(outdated.map((file) => rm(join(archiveDir, file), { force: true })));
}

/** The `java` on PATH, by its real path and modification time: upgrading the JDK changes both or one. */
async function javaIdentity(): Promise<string> {
  const executable = process.platform === 'win32' ? 'java.exe' : 'java';
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    try {
      const path = await realpath(join(dir, executable));
      const { mtimeMs, size } = await stat(path);
      return `${path}:${mtimeMs}:${size}`;
    } catch {
      // Not in this PATH entry.
    }
  }
  return executable;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
