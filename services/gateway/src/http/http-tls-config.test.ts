import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBatonError } from '@baton/errors';
import { createCertificateAuthority, type IssuedCertificate } from '@baton/local-infra';
import { loadGatewayConfig } from '../gateway-config.js';

const BASE = { KAFKA_BROKERS: 'localhost:9092', SCHEMA_REGISTRY_URL: 'http://localhost:8081' };
const PASSPHRASE = 'test-passphrase-9c1e';
const WRONG_PASSPHRASE = 'wrong-passphrase-51d0';

let dir: string;
/** A certificate for localhost and its key; the same with an encrypted key; a key of another pair. */
let pair: IssuedCertificate;
let encrypted: IssuedCertificate;
let otherKeyFile: string;
let passwordFile: string;
let wrongPasswordFile: string;
let keyLines: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-gateway-tls-'));
  const ca = await createCertificateAuthority(join(dir, 'ca'), 'baton-test-ca');
  const altNames = ['DNS:localhost', 'IP:127.0.0.1'];
  let other: IssuedCertificate;
  [pair, encrypted, other] = await Promise.all([
    ca.issue('localhost', { altNames }),
    ca.issue('localhost', { altNames, keyPassword: PASSPHRASE }),
    ca.issue('other', { altNames }),
  ]);
  otherKeyFile = other.keyPath;
  passwordFile = join(dir, 'password');
  await writeFile(passwordFile, `${PASSPHRASE}\n`);
  wrongPasswordFile = join(dir, 'wrong-password');
  await writeFile(wrongPasswordFile, `${WRONG_PASSPHRASE}\n`);
  await writeFile(join(dir, 'empty-password'), '\n');
  await writeFile(
    join(dir, 'garbled-key.pem'),
    '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n',
  );
  keyLines = [];
  for (const keyPath of [pair.keyPath, encrypted.keyPath, otherKeyFile]) {
    keyLines.push(...(await readFile(keyPath, 'utf8')).split('\n').filter((line) => line && !line.startsWith('-----')));
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const read = (path: string) => readFile(path, 'utf8');

/** The CONFIG_INVALID the settings raise: its path and message. */
function refusal(env: Record<string, string>): { path: string | undefined; message: string } {
  try {
    loadGatewayConfig({ ...BASE, ...env });
  } catch (error) {
    if (!isBatonError(error) || error.code !== 'CONFIG_INVALID') throw error;
    for (const line of keyLines) expect(JSON.stringify(error)).not.toContain(line);
    expect(JSON.stringify(error)).not.toContain(PASSPHRASE);
    expect(JSON.stringify(error)).not.toContain(WRONG_PASSPHRASE);
    return { path: error.path, message: error.message };
  }
  throw new Error('the settings were accepted');
}

describe('BATON_HTTP_TLS_* configuration', () => {
  it('is plain HTTP without a certificate and key', () => {
    expect(loadGatewayConfig(BASE).httpTls).toBeUndefined();
    expect(loadGatewayConfig({ ...BASE, BATON_HTTP_TLS_CERT_FILE: '', BATON_HTTP_TLS_KEY_FILE: '' }).httpTls).toBe(
      undefined,
    );
  });

  it('reads the certificate (its chain) and key', async () => {
    const tls = loadGatewayConfig({
      ...BASE,
      BATON_HTTP_TLS_CERT_FILE: pair.certPath,
      BATON_HTTP_TLS_KEY_FILE: pair.keyPath,
    }).httpTls;
    expect(tls).toStrictEqual({ cert: await read(pair.certPath), key: await read(pair.keyPath) });
  });

  it.each([
    ['BATON_HTTP_TLS_KEY_PASSWORD_FILE, its newline dropped', 'BATON_HTTP_TLS_KEY_PASSWORD_FILE', () => passwordFile],
    ['BATON_HTTP_TLS_KEY_PASSWORD', 'BATON_HTTP_TLS_KEY_PASSWORD', () => PASSPHRASE],
  ])('reads an encrypted key with the passphrase of %s', async (_name, variable, value) => {
    const tls = loadGatewayConfig({
      ...BASE,
      BATON_HTTP_TLS_CERT_FILE: encrypted.certPath,
      BATON_HTTP_TLS_KEY_FILE: encrypted.keyPath,
      [variable]: value(),
    }).httpTls;
    expect(tls).toStrictEqual({
      cert: await read(encrypted.certPath),
      key: await read(encrypted.keyPath),
      passphrase: PASSPHRASE,
    });
  });

  const refusals: [string, () => Record<string, string>, string, string][] = [
    [
      'a certificate without its key',
      () => ({ BATON_HTTP_TLS_CERT_FILE: pair.certPath }),
      'BATON_HTTP_TLS_KEY_FILE',
      'BATON_HTTP_TLS_CERT_FILE is set without BATON_HTTP_TLS_KEY_FILE: set both or neither',
    ],
    [
      'a key without its certificate',
      () => ({ BATON_HTTP_TLS_KEY_FILE: pair.keyPath }),
      'BATON_HTTP_TLS_CERT_FILE',
      'BATON_HTTP_TLS_KEY_FILE is set without BATON_HTTP_TLS_CERT_FILE: set both or neither',
    ],
    [
      'a password file without the pair',
      () => ({ BATON_HTTP_TLS_KEY_PASSWORD_FILE: passwordFile }),
      'BATON_HTTP_TLS_KEY_PASSWORD_FILE',
      'BATON_HTTP_TLS_KEY_PASSWORD_FILE is set without BATON_HTTP_TLS_CERT_FILE and BATON_HTTP_TLS_KEY_FILE',
    ],
    [
      'a password without the pair',
      () => ({ BATON_HTTP_TLS_KEY_PASSWORD: PASSPHRASE }),
      'BATON_HTTP_TLS_KEY_PASSWORD',
      'BATON_HTTP_TLS_KEY_PASSWORD is set without BATON_HTTP_TLS_CERT_FILE and BATON_HTTP_TLS_KEY_FILE',
    ],
    [
      'both the password and its file',
      () => ({
        BATON_HTTP_TLS_CERT_FILE: encrypted.certPath,
        BATON_HTTP_TLS_KEY_FILE: encrypted.keyPath,
        BATON_HTTP_TLS_KEY_PASSWORD: PASSPHRASE,
        BATON_HTTP_TLS_KEY_PASSWORD_FILE: passwordFile,
      }),
      'BATON_HTTP_TLS_KEY_PASSWORD_FILE',
      'set BATON_HTTP_TLS_KEY_PASSWORD or BATON_HTTP_TLS_KEY_PASSWORD_FILE, not both',
    ],
    [
      'a certificate file it cannot read',
      () => ({ BATON_HTTP_TLS_CERT_FILE: join(dir, 'missing.pem'), BATON_HTTP_TLS_KEY_FILE: pair.keyPath }),
      'BATON_HTTP_TLS_CERT_FILE',
      'BATON_HTTP_TLS_CERT_FILE names a file that cannot be read: ENOENT',
    ],
    [
      'a directory for the key',
      () => ({ BATON_HTTP_TLS_CERT_FILE: pair.certPath, BATON_HTTP_TLS_KEY_FILE: dir }),
      'BATON_HTTP_TLS_KEY_FILE',
      'BATON_HTTP_TLS_KEY_FILE names a file that cannot be read: EISDIR',
    ],
    [
      'a password file it cannot read',
      () => ({
        BATON_HTTP_TLS_CERT_FILE: encrypted.certPath,
        BATON_HTTP_TLS_KEY_FILE: encrypted.keyPath,
        BATON_HTTP_TLS_KEY_PASSWORD_FILE: join(dir, 'missing'),
      }),
      'BATON_HTTP_TLS_KEY_PASSWORD_FILE',
      'BATON_HTTP_TLS_KEY_PASSWORD_FILE names a file that cannot be read: ENOENT',
    ],
    [
      'the files swapped',
      () => ({ BATON_HTTP_TLS_CERT_FILE: pair.keyPath, BATON_HTTP_TLS_KEY_FILE: pair.certPath }),
      'BATON_HTTP_TLS_CERT_FILE',
      'BATON_HTTP_TLS_CERT_FILE holds no PEM certificate',
    ],
    [
      'the certificate for the key',
      () => ({ BATON_HTTP_TLS_CERT_FILE: pair.certPath, BATON_HTTP_TLS_KEY_FILE: pair.certPath }),
      'BATON_HTTP_TLS_KEY_FILE',
      'BATON_HTTP_TLS_KEY_FILE holds no PEM private key',
    ],
    [
      'a key of another pair',
      () => ({ BATON_HTTP_TLS_CERT_FILE: pair.certPath, BATON_HTTP_TLS_KEY_FILE: otherKeyFile }),
      'BATON_HTTP_TLS_KEY_FILE',
      'BATON_HTTP_TLS_KEY_FILE is not the key of the certificate in BATON_HTTP_TLS_CERT_FILE',
    ],
    [
      'an encrypted key without its passphrase',
      () => ({ BATON_HTTP_TLS_CERT_FILE: encrypted.certPath, BATON_HTTP_TLS_KEY_FILE: encrypted.keyPath }),
      'BATON_HTTP_TLS_KEY_PASSWORD',
      'BATON_HTTP_TLS_KEY_FILE holds an encrypted key: set BATON_HTTP_TLS_KEY_PASSWORD or BATON_HTTP_TLS_KEY_PASSWORD_FILE',
    ],
    [
      'a passphrase that does not decrypt the key',
      () => ({
        BATON_HTTP_TLS_CERT_FILE: encrypted.certPath,
        BATON_HTTP_TLS_KEY_FILE: encrypted.keyPath,
        BATON_HTTP_TLS_KEY_PASSWORD_FILE: wrongPasswordFile,
      }),
      'BATON_HTTP_TLS_KEY_PASSWORD_FILE',
      'BATON_HTTP_TLS_KEY_PASSWORD_FILE does not open the encrypted key of BATON_HTTP_TLS_KEY_FILE',
    ],
    [
      'an empty passphrase file',
      () => ({
        BATON_HTTP_TLS_CERT_FILE: encrypted.certPath,
        BATON_HTTP_TLS_KEY_FILE: encrypted.keyPath,
        BATON_HTTP_TLS_KEY_PASSWORD_FILE: join(dir, 'empty-password'),
      }),
      'BATON_HTTP_TLS_KEY_PASSWORD_FILE',
      'BATON_HTTP_TLS_KEY_PASSWORD_FILE names an empty file',
    ],
    [
      'a key file that is no key',
      () => ({ BATON_HTTP_TLS_CERT_FILE: pair.certPath, BATON_HTTP_TLS_KEY_FILE: join(dir, 'garbled-key.pem') }),
      'BATON_HTTP_TLS_KEY_FILE',
      'BATON_HTTP_TLS_KEY_FILE holds no usable private key',
    ],
  ];

  it.each(refusals)(
    'refuses %s with CONFIG_INVALID naming the variable, quoting no file',
    (_name, env, variable, message) => {
      expect(refusal(env())).toStrictEqual({ path: `/env/${variable}`, message });
    },
  );
});
