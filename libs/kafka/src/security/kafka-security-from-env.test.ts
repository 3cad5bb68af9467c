import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '@baton/errors';
import { kafkaSecurityFromEnv } from './kafka-security-from-env.js';
import {
  KEY_PASSWORD,
  hasOpenssl,
  makeTestCertificates,
  type TestCertificates,
} from './test-certificates.test-helper.js';

const SASL_PASSWORD = 'sasl-Pa55word-never-shown';
type Env = Record<string, string>;

let certs: TestCertificates;
let saslPasswordFile: string;
let keyPasswordFile: string;
let notPem: string;
beforeAll(() => {
  certs = makeTestCertificates();
  saslPasswordFile = join(certs.dir, 'sasl-password');
  writeFileSync(saslPasswordFile, `${SASL_PASSWORD}\n`);
  keyPasswordFile = join(certs.dir, 'key-password');
  writeFileSync(keyPasswordFile, `${KEY_PASSWORD}\n`);
  notPem = join(certs.dir, 'not.pem');
  writeFileSync(notPem, `${SASL_PASSWORD} ${KEY_PASSWORD}`);
});
afterAll(() => certs?.remove());

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

describe.skipIf(!hasOpenssl())('kafkaSecurityFromEnv', () => {
  it('is empty (PLAINTEXT) when nothing is set', () => {
    expect(kafkaSecurityFromEnv({})).toStrictEqual({});
    expect(kafkaSecurityFromEnv({ KAFKA_SECURITY_PROTOCOL: '' })).toStrictEqual({});
    expect(kafkaSecurityFromEnv({ KAFKA_SECURITY_PROTOCOL: 'plaintext' })).toStrictEqual({});
  });

  it('SSL without files: TLS checked against Node’s public CAs', () => {
    expect(kafkaSecurityFromEnv({ KAFKA_SECURITY_PROTOCOL: 'SSL' })).toStrictEqual({ tls: {} });
  });

  it('SSL with a CA bundle', () => {
    const security = kafkaSecurityFromEnv({ KAFKA_SECURITY_PROTOCOL: 'ssl', KAFKA_SSL_CA_FILE: certs.caFile });
    expect(security).toStrictEqual({ tls: { ca: certs.read(certs.caFile) } });
  });

  it('SSL with mutual TLS: the certificate and its key', () => {
    const security = kafkaSecurityFromEnv({
      KAFKA_SECURITY_PROTOCOL: 'SSL',
      KAFKA_SSL_CA_FILE: certs.caFile,
      KAFKA_SSL_CERT_FILE: certs.certFile,
      KAFKA_SSL_KEY_FILE: certs.keyFile,
    });
    expect(security.tls).toStrictEqual({
      ca: certs.read(certs.caFile),
      cert: certs.read(certs.certFile),
      key: certs.read(certs.keyFile),
    });
    expect(security.sasl).toBeUndefined();
  });

  it.each([
    ['KAFKA_SSL_KEY_PASSWORD', () => KEY_PASSWORD],
    ['KAFKA_SSL_KEY_PASSWORD_FILE', () => keyPasswordFile],
  ])('SSL with an encrypted key and %s', (variable, value) => {
    const security = kafkaSecurityFromEnv({
      KAFKA_SECURITY_PROTOCOL: 'SSL',
      KAFKA_SSL_CERT_FILE: certs.certFile,
      KAFKA_SSL_KEY_FILE: certs.encryptedKeyFile,
      [variable]: value(),
    });
    expect(security.tls?.key).toContain('ENCRYPTED PRIVATE KEY');
    expect(security.tls?.keyPassword).toBe(KEY_PASSWORD);
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
      KAFKA_SSL_CA_FILE: certs.caFile,
    });
    expect(security).toStrictEqual({
      tls: { ca: certs.read(certs.caFile) },
      sasl: { mechanism: mechanism.toUpperCase(), username: 'baton', password: SASL_PASSWORD },
    });
  });

  const invalid: [string, () => Env, string, RegExp?][] = [
    ['an unknown protocol', () => ({ KAFKA_SECURITY_PROTOCOL: 'TLS' }), 'KAFKA_SECURITY_PROTOCOL'],
    [
      'a CA file with PLAINTEXT',
      () => ({ KAFKA_SSL_CA_FILE: certs.caFile }),
      'KAFKA_SSL_CA_FILE',
      /KAFKA_SECURITY_PROTOCOL is PLAINTEXT/,
    ],
    [
      'a client certificate with SASL_PLAINTEXT',
      () => ({ ...saslEnv('SASL_PLAINTEXT'), KAFKA_SSL_CERT_FILE: certs.certFile }),
      'KAFKA_SSL_CERT_FILE',
    ],
    ['a key password with PLAINTEXT', () => ({ KAFKA_SSL_KEY_PASSWORD: KEY_PASSWORD }), 'KAFKA_SSL_KEY_PASSWORD'],
    [
      'a SASL mechanism with SSL',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SASL_MECHANISM: 'PLAIN' }),
      'KAFKA_SASL_MECHANISM',
      /set KAFKA_SECURITY_PROTOCOL to SASL_PLAINTEXT or SASL_SSL/,
    ],
    ['a SASL password with PLAINTEXT', () => ({ KAFKA_SASL_PASSWORD: SASL_PASSWORD }), 'KAFKA_SASL_PASSWORD'],
    [
      'a SASL password file with PLAINTEXT',
      () => ({ KAFKA_SASL_PASSWORD_FILE: saslPasswordFile }),
      'KAFKA_SASL_PASSWORD_FILE',
    ],
    [
      'SASL_SSL without a mechanism',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_MECHANISM: '' }),
      'KAFKA_SASL_MECHANISM',
      /required/,
    ],
    [
      'OAUTHBEARER',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_MECHANISM: 'oauthbearer' }),
      'KAFKA_SASL_MECHANISM',
      /OAUTHBEARER is not supported/,
    ],
    [
      'an unknown mechanism',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_MECHANISM: 'GSSAPI' }),
      'KAFKA_SASL_MECHANISM',
      /must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512/,
    ],
    ['SASL_SSL without a username', () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_USERNAME: '' }), 'KAFKA_SASL_USERNAME'],
    ['SASL_SSL without a password', () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_PASSWORD: '' }), 'KAFKA_SASL_PASSWORD'],
    [
      'both the SASL password and its file',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_PASSWORD_FILE: saslPasswordFile }),
      'KAFKA_SASL_PASSWORD_FILE',
    ],
    [
      'an unreadable SASL password file',
      () => ({ ...saslEnv('SASL_SSL'), KAFKA_SASL_PASSWORD: '', KAFKA_SASL_PASSWORD_FILE: join(certs.dir, 'none') }),
      'KAFKA_SASL_PASSWORD_FILE',
      /cannot be read: ENOENT$/,
    ],
    [
      'an unreadable CA file',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: join(certs.dir, 'none.pem') }),
      'KAFKA_SSL_CA_FILE',
    ],
    [
      'a CA file that is not PEM',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: notPem }),
      'KAFKA_SSL_CA_FILE',
    ],
    [
      'a certificate without its key',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CERT_FILE: certs.certFile }),
      'KAFKA_SSL_KEY_FILE',
    ],
    [
      'a key without its certificate',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_KEY_FILE: certs.keyFile }),
      'KAFKA_SSL_CERT_FILE',
    ],
    [
      'a key where the certificate belongs',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CERT_FILE: certs.keyFile, KAFKA_SSL_KEY_FILE: certs.keyFile }),
      'KAFKA_SSL_CERT_FILE',
    ],
    [
      'a key password without a key',
      () => ({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_KEY_PASSWORD: KEY_PASSWORD }),
      'KAFKA_SSL_KEY_PASSWORD',
    ],
    [
      'an encrypted key without its password',
      () => ({
        KAFKA_SECURITY_PROTOCOL: 'SSL',
        KAFKA_SSL_CERT_FILE: certs.certFile,
        KAFKA_SSL_KEY_FILE: certs.encryptedKeyFile,
      }),
      'KAFKA_SSL_KEY_PASSWORD',
      /without a password/,
    ],
    [
      'an encrypted key with a wrong password',
      () => ({
        KAFKA_SECURITY_PROTOCOL: 'SSL',
        KAFKA_SSL_CERT_FILE: certs.certFile,
        KAFKA_SSL_KEY_FILE: certs.encryptedKeyFile,
        KAFKA_SSL_KEY_PASSWORD: `${KEY_PASSWORD}-wrong`,
      }),
      'KAFKA_SSL_KEY_PASSWORD',
      /password is wrong/,
    ],
    [
      'a key of another pair',
      () => ({
        KAFKA_SECURITY_PROTOCOL: 'SSL',
        KAFKA_SSL_CERT_FILE: certs.certFile,
        KAFKA_SSL_KEY_FILE: certs.otherKeyFile,
      }),
      'KAFKA_SSL_KEY_FILE',
      /not the key of the certificate/,
    ],
  ];

  it.each(invalid)('refuses %s with CONFIG_INVALID naming %s, never a secret', (_name, env, variable, message) => {
    const error = configError(env());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toBe(`/env/${variable}`);
    expect(error.message).toContain(variable);
    if (message) expect(error.message).toMatch(message);
    for (const secret of [SASL_PASSWORD, KEY_PASSWORD, 'PRIVATE KEY', 'BEGIN']) {
      expect(error.message).not.toContain(secret);
      expect(JSON.stringify(error)).not.toContain(secret);
    }
  });
});
