import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCertificate {
  dir: string;
  /** Self-signed for localhost and 127.0.0.1: the certificate is its own CA. */
  certFile: string;
  keyFile: string;
  /** The same key, encrypted with the passphrase in passwordFile. */
  encryptedKeyFile: string;
  passwordFile: string;
  /** A second pair: its key does not match certFile. */
  otherCertFile: string;
  otherKeyFile: string;
  remove(): Promise<void>;
}

async function selfSigned(certFile: string, keyFile: string): Promise<void> {
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
}

/** Certificates made at test time with the openssl command, in a temporary directory. */
export async function makeTestCertificate(passphrase = 'test-passphrase-9c1e'): Promise<TestCertificate> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-gateway-tls-'));
  const file = (name: string) => join(dir, name);
  await Promise.all([
    selfSigned(file('cert.pem'), file('key.pem')),
    selfSigned(file('other-cert.pem'), file('other-key.pem')),
    writeFile(file('password'), `${passphrase}\n`),
  ]);
  await run('openssl', [
    'pkey',
    '-in',
    file('key.pem'),
    '-aes256',
    '-passout',
    `file:${file('password')}`,
    '-out',
    file('key-encrypted.pem'),
  ]);
  return {
    dir,
    certFile: file('cert.pem'),
    keyFile: file('key.pem'),
    encryptedKeyFile: file('key-encrypted.pem'),
    passwordFile: file('password'),
    otherCertFile: file('other-cert.pem'),
    otherKeyFile: file('other-key.pem'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
