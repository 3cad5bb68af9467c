import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isBatonError, type BatonError } from '@baton/errors';
import { ENCRYPTED_VALUE_PREFIX } from '@baton/protocol';
import { fieldEncryptionStage } from './field-encryption-stage.js';
import { generateKeyRingEntry, keyRingFileText } from './generate-key-ring.js';
import { parseKeyRing } from './key-ring.js';
import { keyRingFromEnv } from './key-ring-env.js';
import { KeyRingFile } from './key-ring-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function ringFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'baton-keyring-'));
  dirs.push(dir);
  const path = join(dir, 'keyring.json');
  writeFileSync(path, text);
  return path;
}

/** Replaces the file as Kubernetes does a mounted secret: a new file moved over the old one. */
function replace(path: string, text: string): void {
  writeFileSync(`${path}.next`, text);
  renameSync(`${path}.next`, path);
}

function caught(run: () => unknown): BatonError {
  try {
    run();
  } catch (error) {
    if (isBatonError(error)) return error;
    throw error;
  }
  throw new Error('expected a BatonError');
}

const customer = (name: string) => ({
  payload: { handoff_type: 'ESCALATION', data: { customer_info: { user_id: 'u1', name } } },
});

describe('key ring files', () => {
  it('refuses a malformed ring with CONFIG_INVALID at the bad entry, never showing a key', () => {
    const good = generateKeyRingEntry('pii-a');
    const short = { key_id: 'pii-b', key: Buffer.alloc(16, 7).toString('base64') };
    const cases: [string, string][] = [
      ['not json', ''],
      [JSON.stringify({ primary: 'pii-a', keys: [] }), '/keys'],
      [keyRingFileText([good, short]), '/keys/1/key'],
      [keyRingFileText([good, { ...good }]), '/keys/1/key_id'],
      [keyRingFileText([{ ...good, key_id: 'has:colon' }]), '/keys/0/key_id'],
      [keyRingFileText([good], 'pii-z'), '/primary'],
    ];
    for (const [text, pointer] of cases) {
      const error = caught(() => parseKeyRing(text, '/secrets/keyring.json'));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.path).toBe(pointer);
      expect(error.message).toContain('/secrets/keyring.json');
      expect(error.message).not.toContain(good.key);
      expect(error.message).not.toContain(short.key);
    }
  });

  it('is read from BATON_PII_KEYRING_FILE; unset means no key ring, an unreadable file stops the start', () => {
    expect(keyRingFromEnv({})).toBeUndefined();
    const path = ringFile(keyRingFileText([generateKeyRingEntry('pii-a')]));
    expect(keyRingFromEnv({ BATON_PII_KEYRING_FILE: path })?.keyIds()).toEqual(['pii-a']);
    const error = caught(() => keyRingFromEnv({ BATON_PII_KEYRING_FILE: `${path}.missing` }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toBe('/env/BATON_PII_KEYRING_FILE');
  });

  it('reads the file again at once when a value names a key id it does not have, within a cooldown', () => {
    const a = generateKeyRingEntry('pii-a');
    const b = generateKeyRingEntry('pii-b');
    const path = ringFile(keyRingFileText([a]));
    let now = 0;
    const reader = new KeyRingFile(path, { now: () => now, unknownKeyCooldownMs: 1_000, checkIntervalMs: 60_000 });
    const writerPath = ringFile(keyRingFileText([b, a]));
    const sealed = fieldEncryptionStage('handoff', new KeyRingFile(writerPath)).seal(customer('John Doe'));
    const stage = fieldEncryptionStage('handoff', reader);

    expect(caught(() => stage.open(sealed)).code).toBe('PERSONAL_DATA_UNREADABLE');
    replace(path, keyRingFileText([a, b]));
    // Within the cooldown the unknown id is not looked up again...
    expect(caught(() => stage.open(sealed)).code).toBe('PERSONAL_DATA_UNREADABLE');
    now += 1_000;
    // ...after it, the file is read and the value opens.
    expect(stage.open(sealed)).toEqual(customer('John Doe'));
    expect(reader.keyIds()).toEqual(['pii-a', 'pii-b']);
  });

  it('takes up a rotated primary once the file has changed, and keeps the old ring when the new file is broken', () => {
    const a = generateKeyRingEntry('pii-a');
    const b = generateKeyRingEntry('pii-b');
    const path = ringFile(keyRingFileText([a]));
    let now = 0;
    const failures: BatonError[] = [];
    const ring = new KeyRingFile(path, {
      now: () => now,
      checkIntervalMs: 5_000,
      onReloadFailed: (e) => failures.push(e),
    });
    const stage = fieldEncryptionStage('handoff', ring);
    const keyIdOf = (message: unknown) =>
      ((message as any).payload.data.customer_info.name as string).slice(ENCRYPTED_VALUE_PREFIX.length).split(':')[0];

    replace(path, keyRingFileText([b, a]));
    expect(keyIdOf(stage.seal(customer('x')))).toBe('pii-a');
    now += 5_000;
    expect(keyIdOf(stage.seal(customer('x')))).toBe('pii-b');

    replace(path, '{"primary": "pii-c", "keys": [');
    now += 5_000;
    expect(keyIdOf(stage.seal(customer('x')))).toBe('pii-b');
    expect(failures.map((failure) => failure.code)).toEqual(['CONFIG_INVALID']);
    expect(failures[0]!.message).not.toContain(a.key);
  });
});
