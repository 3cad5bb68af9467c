import { readFileSync, statSync } from 'node:fs';
import { BatonError, isBatonError } from '@baton/errors';
import { parseKeyRing, type KeyRing, type KeyRingSource } from './key-ring.js';

export interface KeyRingFileOptions {
  /** How often, at most, the file is looked at (one stat) for a change: a rotated primary is used after it. */
  checkIntervalMs?: number;
  /** Least time between two reads caused by an unknown key id, so a flood of bad values cannot spin on the disk. */
  unknownKeyCooldownMs?: number;
  /** Told when a changed file cannot be read; the ring read before stays in use. */
  onReloadFailed?: (error: BatonError) => void;
  now?: () => number;
}

interface FileVersion {
  ino: number;
  size: number;
  mtimeMs: number;
}

function versionOf(path: string): FileVersion {
  const { ino, size, mtimeMs } = statSync(path);
  return { ino, size, mtimeMs };
}

function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

function readRing(path: string): { ring: KeyRing; version: FileVersion } {
  let version: FileVersion;
  let text: string;
  try {
    version = versionOf(path);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new BatonError(
      'CONFIG_INVALID',
      `the key ring ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      {
        path: '/env/BATON_PII_KEYRING_FILE',
        details: { source: path },
      },
    );
  }
  return { ring: parseKeyRing(text, path), version };
}

/**
 * A key ring file (a mounted Kubernetes secret, say), read at construction and again when it
 * changes: Kubernetes replaces a mounted secret's files in place, so a rotation reaches a running
 * service without a restart. The file is stat'ed at most every `checkIntervalMs`, and read again
 * at once (within the cooldown) when a value names a key id the ring does not have: a value
 * encrypted under a key added elsewhere is readable as soon as the file here has it.
 * Construction throws CONFIG_INVALID; a later bad read keeps the previous ring.
 */
export class KeyRingFile implements KeyRingSource {
  private ring: KeyRing;
  private version: FileVersion;
  private checkedAt: number;
  private unknownReadAt = Number.NEGATIVE_INFINITY;
  private readonly checkIntervalMs: number;
  private readonly unknownKeyCooldownMs: number;
  private readonly now: () => number;

  constructor(
    readonly path: string,
    private readonly options: KeyRingFileOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.checkIntervalMs = options.checkIntervalMs ?? 5_000;
    this.unknownKeyCooldownMs = options.unknownKeyCooldownMs ?? 1_000;
    ({ ring: this.ring, version: this.version } = readRing(path));
    this.checkedAt = this.now();
  }

  primary(): { keyId: string; key: Buffer } {
    if (this.now() - this.checkedAt >= this.checkIntervalMs) this.reloadIfChanged();
    return { keyId: this.ring.primaryId, key: this.ring.keys.get(this.ring.primaryId)! };
  }

  key(keyId: string): Buffer | undefined {
    const known = this.ring.keys.get(keyId);
    if (known !== undefined || this.now() - this.unknownReadAt < this.unknownKeyCooldownMs) return known;
    this.unknownReadAt = this.now();
    this.reload();
    return this.ring.keys.get(keyId);
  }

  /** The key ids of the ring in use, primary first: what a service may log. */
  keyIds(): string[] {
    return [this.ring.primaryId, ...[...this.ring.keys.keys()].filter((id) => id !== this.ring.primaryId)];
  }

  private reloadIfChanged(): void {
    this.checkedAt = this.now();
    let version: FileVersion;
    try {
      version = versionOf(this.path);
    } catch {
      // Mid-swap (Kubernetes replaces the ..data link) or gone: the next check sees the outcome.
      return;
    }
    if (!sameVersion(version, this.version)) this.reload();
  }

  private reload(): void {
    this.checkedAt = this.now();
    try {
      ({ ring: this.ring, version: this.version } = readRing(this.path));
    } catch (error) {
      if (!isBatonError(error)) throw error;
      this.options.onReloadFailed?.(error);
    }
  }
}
