import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBatonError } from '@baton/errors';
import { loadGatewayConfig } from '../gateway-config.js';
import { makeTestCertificate, type TestCertificate } from './test-certificate.test-helper.js';

const BASE = { KAFKA_BROKERS: 'localhost:9092', SCHEMA_REGISTRY_URL: 'http://localhost:8081' };
const PASSPHRASE = 'test-passphrase-9c1e';

let files: TestCertificate;
let keyPem: string;

beforeAll(async () => {
  files = await makeTestCertificate(PASSPHRASE);
  keyPem = readFileSync(files.keyFile, 'utf8');
});
afterAll(() => files.remove());

/** The CONFIG_INVALID the settings raise: its path and message. */
function refusal(env: Record<string, string>): { path: string | undefined; message: string } {
  try {
    loadGatewayConfig({ ...BASE, ...env });
  } catch (error) {
    if (!isBatonError(error) || error.code !== 'CONFIG_INVALID') throw error;
    return { path: error.path, message: error.message };
  }
  throw new Error('the settings were accepted');
}

/** No line of the key's base64 body may be in a message. */
function expectNoKeyIn(message: string): void {
  for (const line of keyPem.split('\n').filter((text) => text !== '' && !text.startsWith('-----'))) {
    expect(message).not.toContain(line);
  }
  expect(message).not.toContain(PASSPHRASE);
}

describe('BATON_HTTP_TLS_* configuration', () => {
  it('is plain HTTP without a certificate and key', () => {
    expect(loadGatewayConfig(BASE).httpTls).toBeUndefined();
    expect(loadGatewayConfig({ ...BASE, BATON_HTTP_TLS_CERT_FILE: ' ', BATON_HTTP_TLS_KEY_FILE: '' }).httpTls).toBe(
      undefined,
    );
  });

  it('reads the certificate and key', () => {
    const tls = loadGatewayConfig({
      ...BASE,
      BATON_HTTP_TLS_CERT_FILE: files.certFile,
      BATON_HTTP_TLS_KEY_FILE: files.keyFile,
    }).httpTls;
    expect(tls).toEqual({ cert: readFileSync(files.certFile, 'utf8'), key: keyPem });
  });

  it('reads an encrypted key with the passphrase of BATON_HTTP_TLS_KEY_PASSWORD_FILE, its newline trimmed', () => {
    const tls = loadGatewayConfig({
      ...BASE,
      BATON_HTTP_TLS_CERT_FILE: files.certFile,
      BATON_HTTP_TLS_KEY_FILE: files.encryptedKeyFile,
      BATON_HTTP_TLS_KEY_PASSWORD_FILE: files.passwordFile,
    }).httpTls;
    expect(tls?.key).toContain('-----BEGIN ENCRYPTED PRIVATE KEY-----');
    expect(tls?.passphrase).toBe(PASSPHRASE);
  });

  it('wants both the certificate and the key, and the password file only with them', () => {
    expect(refusal({ BATON_HTTP_TLS_CERT_FILE: files.certFile })).toEqual({
      path: '/env/BATON_HTTP_TLS_KEY_FILE',
      message: 'BATON_HTTP_TLS_KEY_FILE is required with BATON_HTTP_TLS_CERT_FILE',
    });
    expect(refusal({ BATON_HTTP_TLS_KEY_FILE: files.keyFile })).toEqual({
      path: '/env/BATON_HTTP_TLS_CERT_FILE',
      message: 'BATON_HTTP_TLS_CERT_FILE is required with BATON_HTTP_TLS_KEY_FILE',
    });
    expect(refusal({ BATON_HTTP_TLS_KEY_PASSWORD_FILE: files.passwordFile }).path).toBe(
      '/env/BATON_HTTP_TLS_KEY_PASSWORD_FILE',
    );
  });

  it('names the variable and the errno code of a file it cannot read, not the file', () => {
    const missing = join(files.dir, 'missing.pem');
    expect(refusal({ BATON_HTTP_TLS_CERT_FILE: missing, BATON_HTTP_TLS_KEY_FILE: files.keyFile })).toEqual({
      path: '/env/BATON_HTTP_TLS_CERT_FILE',
      message: 'BATON_HTTP_TLS_CERT_FILE names a file that cannot be read: ENOENT',
    });
    expect(refusal({ BATON_HTTP_TLS_CERT_FILE: files.certFile, BATON_HTTP_TLS_KEY_FILE: files.dir })).toEqual({
      path: '/env/BATON_HTTP_TLS_KEY_FILE',
      message: 'BATON_HTTP_TLS_KEY_FILE names a file that cannot be read: EISDIR',
    });
    expect(
      refusal({
        BATON_HTTP_TLS_CERT_FILE: files.certFile,
        BATON_HTTP_TLS_KEY_FILE: files.encryptedKeyFile,
        BATON_HTTP_TLS_KEY_PASSWORD_FILE: missing,
      }),
    ).toEqual({
      path: '/env/BATON_HTTP_TLS_KEY_PASSWORD_FILE',
      message: 'BATON_HTTP_TLS_KEY_PASSWORD_FILE names a file that cannot be read: ENOENT',
    });
  });

  it('refuses files that are not what they should be, quoting none of them', () => {
    const garbledKey = join(files.dir, 'garbled-key.pem');
    writeFileSync(garbledKey, '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n');
    const wrongPassword = join(files.dir, 'wrong-password');
    writeFileSync(wrongPassword, 'wrong-passphrase-51d0\n');
    const cases: [Record<string, string>, string, RegExp][] = [
      // The files swapped.
      [
        { BATON_HTTP_TLS_CERT_FILE: files.keyFile, BATON_HTTP_TLS_KEY_FILE: files.certFile },
        'CERT_FILE',
        /holds no PEM certificate/,
      ],
      [
        { BATON_HTTP_TLS_CERT_FILE: files.certFile, BATON_HTTP_TLS_KEY_FILE: files.certFile },
        'KEY_FILE',
        /holds no PEM private key/,
      ],
      [
        { BATON_HTTP_TLS_CERT_FILE: files.certFile, BATON_HTTP_TLS_KEY_FILE: files.otherKeyFile },
        'KEY_FILE',
        /does not match the certificate/,
      ],
      [
        { BATON_HTTP_TLS_CERT_FILE: files.certFile, BATON_HTTP_TLS_KEY_FILE: files.encryptedKeyFile },
        'KEY_FILE',
        /encrypted key: set BATON_HTTP_TLS_KEY_PASSWORD_FILE/,
      ],
      [
        {
          BATON_HTTP_TLS_CERT_FILE: files.certFile,
          BATON_HTTP_TLS_KEY_FILE: files.encryptedKeyFile,
          BATON_HTTP_TLS_KEY_PASSWORD_FILE: wrongPassword,
        },
        'KEY_PASSWORD_FILE',
        /does not decrypt the key/,
      ],
      [
        { BATON_HTTP_TLS_CERT_FILE: files.certFile, BATON_HTTP_TLS_KEY_FILE: garbledKey },
        'KEY_FILE',
        /holds no usable private key \(ERR_OSSL_[A-Z_]+\)/,
      ],
    ];
    for (const [env, variable, message] of cases) {
      const { path, message: said } = refusal(env);
      expect([path, said]).toEqual([`/env/BATON_HTTP_TLS_${variable}`, expect.stringMatching(message)]);
      expectNoKeyIn(said);
      expect(said).not.toContain('wrong-passphrase');
    }
  });
});
