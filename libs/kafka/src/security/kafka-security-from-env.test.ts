import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '@baton/errors';
import { createCertificateAuthority, type IssuedCertificate } from '@baton/local-infra';
import { kafkaSecurityFromEnv } from './kafka-security-from-env.js';

const SASL_PASSWORD = 'sasl-Pa55word-never-shown';
const KEY_PASSWORD = 'key-Pa55word-never-shown';
type Env = Record<string, string>;

/** The PEM text of each file the tests name: what the settings must hand over as it is. */
const pem: Record<string, string> = {};
let dir: string;
let caFile: string;
/** A client certificate and its key; the same with an encrypted key; a key of another pair. */
let pair: IssuedCertificate;
let encrypted: IssuedCertificate;
let otherKeyFile: string;
let saslPasswordFile: string;
let keyPasswordFile: string;
let notPem: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-kafka-tls-'));
  const ca = await createCertificateAuthority(join(dir, 'ca'), 'baton-test-ca');
  caFile = ca.caPath;
  let other: IssuedCertificate;
  [pair, encrypted, other] = await Promise.all([
    ca.issue('baton'),
    ca.issue('baton', { keyPassword: KEY_PASSWORD }),
    ca.issue('other'),
  ]);
  otherKeyFile = other.keyPath;
  for (const file of [caFile, pair.certPath, pair.keyPath, encrypted.certPath, encrypted.keyPath]) {
    pem[file] = await readFile(file, 'utf8');
  }
  saslPasswordFile = join(dir, 'sasl-password');
  await writeFile(saslPasswordFile, `${SASL_PASSWORD}\n`);
  keyPasswordFile = join(dir, 'key-password');
  await writeFile(keyPasswordFile, `${KEY_PASSWORD}\n`);
  notPem = join(dir, 'not.pem');
  await writeFile(notPem, `${SASL_PASSWORD} ${KEY_PASSWORD}`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function configError(env: Env): BatonError {
  try {
    kafkaSecurityFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(BatonError);
    return error as BatonError;
  }
  throw new Error('expected CONFIG_INVALID');
}

const saslEnv = (protocol: string): Env => ({
  KAFKA_SECURITY_PROTOCOL: protocol,
  KAFKA_SASL_MECHANISM: 'PLAIN',
  KAFKA_SASL_USERNAME: 'API_KEY',
  KAFKA_SASL_PASSWORD: SASL_PASSWORD,
});

describe('kafkaSecurityFromEnv', () => {
  it('is empty (PLAINTEXT) when nothing is set', () => {
    expect(kafkaSecurityFromEnv({})).toStrictEqual({});
    expect(kafkaSecurityFromEnv({ KAFKA_SECURITY_PROTOCOL: '' })).toStrictEqual({});
    expect(kafkaSecurityFromEnv({ KAFKA_SECURITY_PROTOCOL: 'plaintext' })).toStrictEqual({});
  });

  it('SSL without files: TLS checked against Node’s public CAs', () => {
    expect(kafkaSecurityFromEnv({ KAFKA_SECURITY_PROTOCOL: 'SSL' })).toStrictEqual({ tls: {} });
  });

  it('SSL with a CA bundle', () => {
    const security = kafkaSecurityFromEnv({ KAFKA_SECURITY_PROTOCOL: 'ssl', KAFKA_SSL_CA_FILE: caFile });
    expect(security).toStrictEqual({ tls: { ca: pem[caFile] } });
  });

  it('SSL with mutual TLS: the certificate and its key', () => {
    const security = kafkaSecurityFromEnv({
      KAFKA_SECURITY_PROTOCOL: 'SSL',
      KAFKA_SSL_CA_FILE: caFile,
      KAFKA_SSL_CERT_FILE: pair.certPath,
      KAFKA_SSL_KEY_FILE: pair.keyPath,
    });
    expect(security.tls).toStrictEqual({
      ca: pem[caFile],
      cert: pem[pair.certPath],
      key: pem[pair.keyPath],
    });
    expect(security.sasl).toBeUndefined();
  });

  it.each([
    ['KAFKA_SSL_KEY_PASSWORD', () => KEY_PASSWORD],
    ['KAFKA_SSL_KEY_PASSWORD_FILE', () => keyPasswordFile],
  ])('SSL with an encrypted key and %s', (variable, value) => {
    const security = kafkaSecurityFromEnv({
      KAFKA_SECURITY_PROTOCOL: 'SSL',
      KAFKA_SSL_CERT_FILE: encrypted.certPath,
      KAFKA_SSL_KEY_FILE: encrypted.keyPath,
      [variable]: value(),
    });
    expect(security).toStrictEqual({
      tls: { cert: pem[encrypted.certPath], key: pem[encrypted.keyPath], keyPassword: KEY_PASSWORD },
    });
  });

  it.each([
    ['SASL_SSL', { tls: {} }],
    ['SASL_PLAINTEXT', {}],
  ])('%s with PLAIN', (protocol, tls) => {
    expect(kafkaSecurityFromEnv(saslEnv(protocol))).toStrictEqual({
      ...tls,
      sasl: { mechanism: 'PLAIN', username: 'API_KEY', password: SASL_PASSWORD },
    });
  });

  it.each(['SCRAM-SHA-256', 'scram-sha-512'])('SASL_SSL with %s and the password from a file', (mechanism) => {
    const security = kafkaSecurityFromEnv({
      KAFKA_SECURITY_PROTOCOL: 'sasl_ssl',
      KAFKA_SASL_MECHANISM: mechanism,
      KAFKA_SASL_USERNAME: 'baton',
      KAFKA_SASL_PASSWORD_FILE: saslPasswordFile,
      KAFKA_SSL_CA_FILE: caFile,
    });
    expect(security).toStrictEqual({
      tls: { ca: pem[caFile] },
      sasl: { mechanism: mechanism.toUpperCase(), username: 'baton', password: SASL_PASSWORD },
    });
  });

  const TLS_ONLY = 'set KAFKA_SECURITY_PROTOCOL to SSL or SASL_SSL';
  const SASL_ONLY = 'set KAFKA_SECURITY_PROTOCOL to SASL_PLAINTEXT or SASL_SSL';
  const MECHANISMS = 'PLAIN, SCRAM-SHA-256, SCRAM-SHA-512';
  const invalid: [string, () => Env, string, string][] = [
    [
      'an unknown protocol',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'TLS' }),
      'KAFKA_SECURITY_PROTOCOL',
      'KAFKA_SECURITY_PROTOCOL must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL, not "TLS"',
    ],
    [
      'a CA file with PLAINTEXT',
      () => ({ KAFKA_SSL_CA_FILE: caFile }),
      'KAFKA_SSL_CA_FILE',
      `KAFKA_SSL_CA_FILE is set but KAFKA_SECURITY_PROTOCOL is PLAINTEXT: ${TLS_ONLY}, or unset KAFKA_SSL_CA_FILE`,
    ],
    [
      'a client certificate with SASL_PLAINTEXT',
      () => ({ ...saslEnv('SASL_PLAINTEXT'), KAFKA_SSL_CERT_FILE: pair.certPath }),
      'KAFKA_SSL_CERT_FILE',
      `KAFKA_SSL_CERT_FILE is set but KAFKA_SECURITY_PROTOCOL is SASL_PLAINTEXT: ${TLS_ONLY}, or unset KAFKA_SSL_CERT_FILE`,
    ],
    [
      'a key password with PLAINTEXT',
      () => ({ KAFKA_SSL_KEY_PASSWORD: KEY_PASSWORD }),
      'KAFKA_SSL_KEY_PASSWORD',
      `KAFKA_SSL_KEY_PASSWORD is set but KAFKA_SECURITY_PROTOCOL is PLAINTEXT: ${TLS_ONLY}, or unset KAFKA_SSL_KEY_PASSWORD`,
    ],
    [
      'a SASL mechanism with SSL',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SASL_MECHANISM: 'PLAIN' }),
      'KAFKA_SASL_MECHANISM',
      `KAFKA_SASL_MECHANISM is set but KAFKA_SECURITY_PROTOCOL is SSL: ${SASL_ONLY}, or unset KAFKA_SASL_MECHANISM`,
    ],
    [
      'a SASL password with PLAINTEXT',
      () => ({ KAFKA_SASL_PASSWORD: SASL_PASSWORD }),
      'KAFKA_SASL_PASSWORD',
      `KAFKA_SASL_PASSWORD is set but KAFKA_SECURITY_PROTOCOL is PLAINTEXT: ${SASL_ONLY}, or unset KAFKA_SASL_PASSWORD`,
    ],
    [
      'a SASL password file with PLAINTEXT',
      () => ({ KAFKA_SASL_PASSWORD_FILE: saslPasswordFile }),
      'KAFKA_SASL_PASSWORD_FILE',
      `KAFKA_SASL_PASSWORD_FILE is set but KAFKA_SECURITY_PROTOCOL is PLAINTEXT: ${SASL_ONLY}, or unset KAFKA_SASL_PASSWORD_FILE`,
    ],
    [
      'SASL_SSL without a mechanism',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_MECHANISM: '' }),
      'KAFKA_SASL_MECHANISM',
      `KAFKA_SASL_MECHANISM is required with SASL_PLAINTEXT and SASL_SSL: one of ${MECHANISMS}`,
    ],
    [
      'OAUTHBEARER',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_MECHANISM: 'oauthbearer' }),
      'KAFKA_SASL_MECHANISM',
      `KAFKA_SASL_MECHANISM OAUTHBEARER is not supported: use one of ${MECHANISMS}`,
    ],
    [
      'an unknown mechanism',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_MECHANISM: 'GSSAPI' }),
      'KAFKA_SASL_MECHANISM',
      `KAFKA_SASL_MECHANISM must be one of ${MECHANISMS}, not "GSSAPI"`,
    ],
    [
      'SASL_SSL without a username',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_USERNAME: '' }),
      'KAFKA_SASL_USERNAME',
      'KAFKA_SASL_USERNAME is required with SASL_PLAINTEXT and SASL_SSL',
    ],
    [
      'SASL_SSL without a password',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_PASSWORD: '' }),
      'KAFKA_SASL_PASSWORD',
      'KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE is required with SASL_PLAINTEXT and SASL_SSL',
    ],
    [
      'both the SASL password and its file',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_PASSWORD_FILE: saslPasswordFile }),
      'KAFKA_SASL_PASSWORD_FILE',
      'set KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE, not both',
    ],
    [
      'an unreadable SASL password file',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_PASSWORD: '', KAFKA_SASL_PASSWORD_FILE: join(dir, 'none') }),
      'KAFKA_SASL_PASSWORD_FILE',
      'KAFKA_SASL_PASSWORD_FILE names a file that cannot be read: ENOENT',
    ],
    [
      'an unreadable CA file',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: join(dir, 'none.pem') }),
      'KAFKA_SSL_CA_FILE',
      'KAFKA_SSL_CA_FILE names a file that cannot be read: ENOENT',
    ],
    [
      'a CA file that is not PEM',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: notPem }),
      'KAFKA_SSL_CA_FILE',
      'KAFKA_SSL_CA_FILE holds no PEM certificate',
    ],
    [
      'a certificate without its key',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CERT_FILE: pair.certPath }),
      'KAFKA_SSL_KEY_FILE',
      'KAFKA_SSL_CERT_FILE is set without KAFKA_SSL_KEY_FILE: set both or neither',
    ],
    [
      'a key without its certificate',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_KEY_FILE: pair.keyPath }),
      'KAFKA_SSL_CERT_FILE',
      'KAFKA_SSL_KEY_FILE is set without KAFKA_SSL_CERT_FILE: set both or neither',
    ],
    [
      'a key where the certificate belongs',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CERT_FILE: pair.keyPath, KAFKA_SSL_KEY_FILE: pair.keyPath }),
      'KAFKA_SSL_CERT_FILE',
      'KAFKA_SSL_CERT_FILE holds no PEM certificate',
    ],
    [
      'a key password without a key',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_KEY_PASSWORD: KEY_PASSWORD }),
      'KAFKA_SSL_KEY_PASSWORD',
      'KAFKA_SSL_KEY_PASSWORD is set without KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE',
    ],
    [
      'a key password file without a key',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_KEY_PASSWORD_FILE: keyPasswordFile }),
      'KAFKA_SSL_KEY_PASSWORD_FILE',
      'KAFKA_SSL_KEY_PASSWORD_FILE is set without KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE',
    ],
    [
      'an encrypted key without its password',
      () => ({
        KAFKA_SECURITY_PROTOCOL: 'SSL',
        KAFKA_SSL_CERT_FILE: encrypted.certPath,
        KAFKA_SSL_KEY_FILE: encrypted.keyPath,
      }),
      'KAFKA_SSL_KEY_PASSWORD',
      'KAFKA_SSL_KEY_FILE holds an encrypted key: set KAFKA_SSL_KEY_PASSWORD or KAFKA_SSL_KEY_PASSWORD_FILE',
    ],
    [
      'an encrypted key with a wrong password',
      () => ({
        KAFKA_SECURITY_PROTOCOL: 'SSL',
        KAFKA_SSL_CERT_FILE: encrypted.certPath,
        KAFKA_SSL_KEY_FILE: encrypted.keyPath,
        KAFKA_SSL_KEY_PASSWORD: `${KEY_PASSWORD}-wrong`,
      }),
      'KAFKA_SSL_KEY_PASSWORD',
      'KAFKA_SSL_KEY_PASSWORD does not open the encrypted key of KAFKA_SSL_KEY_FILE',
    ],
    [
      'a key of another pair',
      () => ({
        KAFKA_SECURITY_PROTOCOL: 'SSL',
        KAFKA_SSL_CERT_FILE: pair.certPath,
        KAFKA_SSL_KEY_FILE: otherKeyFile,
      }),
      'KAFKA_SSL_KEY_FILE',
      'KAFKA_SSL_KEY_FILE is not the key of the certificate in KAFKA_SSL_CERT_FILE',
    ],
  ];

  it.each(invalid)(
    'refuses %s with CONFIG_INVALID naming the variable, never a secret',
    (_name, env, variable, message) => {
      const error = configError(env());
      expect([error.code, error.path, error.message]).toStrictEqual(['CONFIG_INVALID', `/env/${variable}`, message]);
      for (const secret of [SASL_PASSWORD, KEY_PASSWORD, 'PRIVATE KEY', 'BEGIN']) {
        expect(JSON.stringify(error)).not.toContain(secret);
      }
    },
  );
});
