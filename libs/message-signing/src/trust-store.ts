import { createPublicKey, type KeyObject } from 'node:crypto';
import { statSync } from 'node:fs';
import { configInvalid, readSettingFile } from '@baton/errors';
import { rawPublicKey } from './ed25519.js';
import { KEY_ID_PATTERN } from './signature-value.js';

/** A public key the trust store holds, and the senders whose messages it may sign. */
export interface TrustedKey {
  keyId: string;
  /** The raw 32-byte Ed25519 public key. */
  publicKey: Buffer;
  /** sender_ids this key signs for; `*` for any (a gateway publishing for its clients). */
  senders: ReadonlySet<string>;
  /** The kinds of record its holder reads from their writers: each writer seals each such record for every such key. */
  reads: ReadonlySet<SealedKind>;
}

/** The kinds of record a writer seals for their readers (VerificationSeals) rather than signs, where the trust store names any. */
export type SealedKind = 'handoff' | 'outcome';

/** The trust store entry's flag naming a reader of each sealed kind. */
const READER_FLAGS: Readonly<Record<SealedKind, string>> = { handoff: 'handoff_reader', outcome: 'outcome_reader' };

export const TRUST_STORE_VARIABLE = 'BATON_TRUST_STORE_FILE';

/**
 * Reads a trust store file: `{"keys": [{"key_id", "senders": [...], "public_key": "<SPKI PEM>", "handoff_reader"?, "outcome_reader"?}]}`.
 * Every problem is CONFIG_INVALID naming the variable and the entry, never the file's content.
 */
export function parseTrustStore(text: string, variable = TRUST_STORE_VARIABLE): Map<string, TrustedKey> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw configInvalid(variable, `${variable} names a file that is not JSON`);
  }
  const entries = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(entries)) throw configInvalid(variable, `${variable}: the file has no "keys" array`);
  const keys = new Map<string, TrustedKey>();
  entries.forEach((entry: Record<string, unknown>, index) => {
    const at = `${variable}: keys[${index}]`;
    const keyId = entry?.key_id;
    if (typeof keyId !== 'string' || !KEY_ID_PATTERN.test(keyId)) {
      throw configInvalid(variable, `${at}.key_id must be 1 to 128 letters, digits, ".", "_" or "-"`);
    }
    if (keys.has(keyId)) throw configInvalid(variable, `${at}: key id ${keyId} is listed twice`);
    const senders = entry.senders;
    const readsOnly = Object.values(READER_FLAGS).some((flag) => entry[flag] === true);
    if (
      !Array.isArray(senders) ||
      (senders.length === 0 && !readsOnly) ||
      !senders.every((s) => typeof s === 'string' && s !== '')
    ) {
      throw configInvalid(
        variable,
        `${at}.senders must list the sender_ids key ${keyId} signs for (none only for a key that reads: handoff_reader or outcome_reader)`,
      );
    }
    let publicKey: KeyObject;
    try {
      publicKey = createPublicKey(String(entry.public_key));
    } catch {
      throw configInvalid(variable, `${at}.public_key of ${keyId} is not a PEM public key`);
    }
    if (publicKey.asymmetricKeyType !== 'ed25519') {
      throw configInvalid(variable, `${at}.public_key of ${keyId} is ${publicKey.asymmetricKeyType}, not ed25519`);
    }
    const reads = new Set<SealedKind>();
    for (const [kind, flag] of Object.entries(READER_FLAGS) as [SealedKind, string][]) {
      const value = entry[flag] ?? false;
      if (typeof value !== 'boolean') throw configInvalid(variable, `${at}.${flag} of ${keyId} must be true or false`);
      if (value) reads.add(kind);
    }
    keys.set(keyId, { keyId, publicKey: rawPublicKey(publicKey), senders: new Set(senders as string[]), reads });
  });
  return keys;
}

export interface TrustStoreOptions {
  file: string;
  /** How often, at most, a lookup of a known key checks whether the file changed (a removed key stops verifying). */
  checkIntervalMs?: number;
  now?: () => number;
}

/**
 * The public keys a service trusts, from a file it cannot write (a mounted secret or ConfigMap).
 * Rotation needs no restart: the file is read again when it has changed (Kubernetes swaps a mounted
 * file's symlink, so its inode changes), looked at on every lookup of a key id not yet known (a
 * stat, so a key added before its first signature verifies at once, however many unknown ids came
 * just before) and at most every check interval otherwise (a removed key stops within it).
 */
export class TrustStore {
  private keys: Map<string, TrustedKey>;
  /** keysSigningFor's index of the keys read last. */
  private bySender = new WeakMap<Map<string, TrustedKey>, Map<string, TrustedKey[]>>();
  /** readersOf's lists of the keys read last. */
  private readers = new WeakMap<Map<string, TrustedKey>, Map<SealedKind, TrustedKey[]>>();
  private version: string;
  private checkedAt: number;
  private readonly now: () => number;
  private readonly reloadFailures: ((error: Error) => void)[] = [];

  constructor(private readonly options: TrustStoreOptions) {
    this.now = options.now ?? Date.now;
    this.version = this.fileVersion();
    this.keys = parseTrustStore(this.readFile());
    this.checkedAt = this.now();
  }

  /** Tells `listener` when a changed file cannot be used: the keys read before stay in force. */
  onReloadFailed(listener: (error: Error) => void): void {
    this.reloadFailures.push(listener);
  }

  get size(): number {
    return this.keys.size;
  }

  /** The keys that sign for `sender` by name (not through `*`): an agent's own keys, several while it rotates. */
  keysSigningFor(sender: string): readonly TrustedKey[] {
    const keys = this.current(false);
    let bySender = this.bySender.get(keys);
    if (bySender === undefined) {
      bySender = new Map();
      for (const key of keys.values()) {
        for (const name of key.senders) bySender.set(name, [...(bySender.get(name) ?? []), key]);
      }
      this.bySender = new WeakMap([[keys, bySender]]);
    }
    return bySender.get(sender) ?? [];
  }

  /**
   * The keys of the services that read `kind` from their writers: of handoffs (`handoff_reader`),
   * the router's and the gateway's; of outcome events (`outcome_reader`), the tracker's and the gateway's.
   */
  readersOf(kind: SealedKind): readonly TrustedKey[] {
    const keys = this.current(false);
    let byKind = this.readers.get(keys);
    if (byKind === undefined) {
      byKind = new Map();
      this.readers = new WeakMap([[keys, byKind]]);
    }
    let readers = byKind.get(kind);
    if (readers === undefined) {
      readers = [...keys.values()].filter((key) => key.reads.has(kind));
      byKind.set(kind, readers);
    }
    return readers;
  }

  keyFor(keyId: string): TrustedKey | undefined {
    return this.current(!this.keys.has(keyId)).get(keyId);
  }

  /** The keys, the file looked at first when a key id is unknown or the check interval has passed. */
  private current(unknownKeyId: boolean): Map<string, TrustedKey> {
    const now = this.now();
    if (unknownKeyId || now - this.checkedAt >= (this.options.checkIntervalMs ?? 5_000)) {
      this.checkedAt = now;
      const version = this.fileVersion();
      if (version !== this.version) this.reload(version);
    }
    return this.keys;
  }

  /** Reads the file of `version`; one that cannot be used is reported once, not at every lookup. */
  private reload(version: string): void {
    this.version = version;
    try {
      this.keys = parseTrustStore(this.readFile());
    } catch (error) {
      for (const listener of this.reloadFailures) listener(error as Error);
    }
  }

  private readFile(): string {
    return readSettingFile(TRUST_STORE_VARIABLE, this.options.file);
  }

  private fileVersion(): string {
    try {
      const stat = statSync(this.options.file);
      return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
    } catch {
      return 'unreadable';
    }
  }
}
