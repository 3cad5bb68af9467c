import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Files of throwaway certificates for the security tests, made with the openssl command. */
export interface TestCertificates {
  dir: string;
  /** A CA that signed `certFile`. */
  caFile: string;
  /** A certificate for the host name localhost only (not 127.0.0.1), signed by the CA; fits a server or a client. */
  certFile: string;
  keyFile: string;
  /** `keyFile` encrypted with KEY_PASSWORD. */
  encryptedKeyFile: string;
  /** A key of another pair: it does not match `certFile`. */
  otherKeyFile: string;
  read(file: string): string;
  remove(): void;
}

export const KEY_PASSWORD = 'key-Pa55word-never-shown';

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'baton-kafka-tls-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-days',
    '1',
    '-subj',
    '/CN=Baton test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  ]);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost\n');
  openssl(dir, ['req', ...ec, '-subj', '/CN=localhost', '-keyout', 'key.pem', '-out', 'cert.csr']);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'cert.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    'san.ext',
    '-out',
    'cert.pem',
  ]);
  openssl(dir, ['pkcs8', '-topk8', '-in', 'key.pem', '-passout', `pass:${KEY_PASSWORD}`, '-out', 'encrypted-key.pem']);
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'other-key.pem']);
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    certFile: join(dir, 'cert.pem'),
    keyFile: join(dir, 'key.pem'),
    encryptedKeyFile: join(dir, 'encrypted-key.pem'),
    otherKeyFile: join(dir, 'other-key.pem'),
    read: (file) => readFileSync(file, 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
