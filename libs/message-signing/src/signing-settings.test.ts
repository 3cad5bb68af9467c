import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newKeyPair, trustStoreText } from './message-signing.test-helper.js';
import { signingSettingsFromEnv } from './signing-settings.js';

const dir = mkdtempSync(join(tmpdir(), 'baton-signing-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const trustFile = join(dir, 'trust.json');
const keyFile = join(dir, 'key.pem');
const { privateKey } = generateKeyPairSync('ed25519');
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
writeFileSync(keyFile, pem);
writeFileSync(trustFile, trustStoreText([newKeyPair('a-1', ['a']).entry]));

const failure = (env: Record<string, string>) => {
  try {
    signingSettingsFromEnv(env);
  } catch (error) {
    return error as { code: string; path: string; message: string };
  }
  throw new Error('no error');
};

describe('signingSettingsFromEnv', () => {
  it('is off and signs nothing when nothing is set', () => {
    expect(signingSettingsFromEnv({})).toEqual({
      mode: 'off',
      signingKey: undefined,
      readerKey: undefined,
      trustStore: undefined,
    });
  });

  it('reads the mode, the trust store and the signing key', () => {
    const settings = signingSettingsFromEnv({
      BATON_SIGNATURES: 'required',
      BATON_TRUST_STORE_FILE: trustFile,
      BATON_SIGNING_KEY_FILE: keyFile,
      BATON_SIGNING_KEY_ID: 'a-1',
    });
    expect(settings.mode).toBe('required');
    expect(settings.trustStore?.size).toBe(1);
    expect(settings.signingKey?.keyId).toBe('a-1');
  });

  it('reads a reader key beside the signing key', () => {
    const settings = signingSettingsFromEnv({
      BATON_SIGNATURES: 'required',
      BATON_TRUST_STORE_FILE: trustFile,
      BATON_READER_KEY_FILE: keyFile,
      BATON_READER_KEY_ID: 'outcome-readers-1',
    });
    expect(settings.readerKey?.keyId).toBe('outcome-readers-1');
    expect(settings.signingKey).toBeUndefined();
  });

  it('refuses each bad setting with CONFIG_INVALID naming its variable, never quoting a key', () => {
    const rsaFile = join(dir, 'rsa.pem');
    writeFileSync(
      rsaFile,
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const cases: [Record<string, string>, string, string][] = [
      [{ BATON_SIGNATURES: 'strict' }, '/env/BATON_SIGNATURES', 'BATON_SIGNATURES must be one of off, warn, required'],
      [
        { BATON_SIGNATURES: 'warn' },
        '/env/BATON_TRUST_STORE_FILE',
        'BATON_SIGNATURES=warn needs BATON_TRUST_STORE_FILE',
      ],
      [
        { BATON_SIGNING_KEY_FILE: keyFile },
        '/env/BATON_SIGNING_KEY_ID',
        'set BATON_SIGNING_KEY_FILE and BATON_SIGNING_KEY_ID together',
      ],
      [
        { BATON_SIGNING_KEY_FILE: trustFile, BATON_SIGNING_KEY_ID: 'a-1' },
        '/env/BATON_SIGNING_KEY_FILE',
        'BATON_SIGNING_KEY_FILE names a file that holds no PEM private key',
      ],
      [
        { BATON_SIGNING_KEY_FILE: rsaFile, BATON_SIGNING_KEY_ID: 'a-1' },
        '/env/BATON_SIGNING_KEY_FILE',
        'BATON_SIGNING_KEY_FILE holds a rsa key, not an ed25519 one',
      ],
      [
        { BATON_READER_KEY_FILE: keyFile },
        '/env/BATON_READER_KEY_ID',
        'set BATON_READER_KEY_FILE and BATON_READER_KEY_ID together',
      ],
      [
        { BATON_READER_KEY_FILE: rsaFile, BATON_READER_KEY_ID: 'r-1' },
        '/env/BATON_READER_KEY_FILE',
        'BATON_READER_KEY_FILE holds a rsa key, not an ed25519 one',
      ],
      [
        { BATON_READER_KEY_FILE: keyFile, BATON_READER_KEY_ID: 'r 1' },
        '/env/BATON_READER_KEY_ID',
        'BATON_READER_KEY_ID must be 1 to 128 letters, digits, ".", "_" or "-"',
      ],
      [
        { BATON_SIGNATURES: 'warn', BATON_TRUST_STORE_FILE: join(dir, 'missing.json') },
        '/env/BATON_TRUST_STORE_FILE',
        'BATON_TRUST_STORE_FILE names a file that cannot be read: ENOENT',
      ],
      [
        { BATON_SIGNATURES: 'warn', BATON_TRUST_STORE_FILE: keyFile },
        '/env/BATON_TRUST_STORE_FILE',
        'BATON_TRUST_STORE_FILE names a file that is not JSON',
      ],
    ];
    for (const [env, path, message] of cases) {
      const error = failure(env);
      expect({ code: error.code, path: error.path, message: error.message }).toEqual({
        code: 'CONFIG_INVALID',
        path,
        message,
      });
      expect(error.message).not.toContain('PRIVATE KEY');
    }
  });
});
