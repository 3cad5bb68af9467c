import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createCertificateAuthority, type CertificateAuthority } from './certificates.js';

let dir: string;
let ca: CertificateAuthority;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-certificates-test-'));
  ca = await createCertificateAuthority(join(dir, 'tls'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a server certificate for localhost chains to the CA and names localhost and 127.0.0.1', async () => {
  const issued = await ca.issue('broker', { altNames: ['DNS:localhost', 'IP:127.0.0.1'] });
  const caCertificate = new X509Certificate(await readFile(ca.caPath));
  const certificate = new X509Certificate(await readFile(issued.certPath));

  expect(certificate.subject).toBe('CN=broker');
  expect(certificate.verify(caCertificate.publicKey)).toBe(true);
  expect(certificate.checkHost('localhost')).toBe('localhost');
  expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
  expect(caCertificate.ca).toBe(true);
  expect(certificate.ca).toBe(false);
  // The chain file holds the CA's certificate after the leaf.
  expect((await readFile(issued.certPath, 'utf8')).match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
});

test('keys are readable by their owner alone, and an encrypted one opens with its password only', async () => {
  const issued = await ca.issue('client-x', { keyPassword: 'secret-123' });
  expect((await stat(issued.keyPath)).mode & 0o777).toBe(0o600);
  expect((await stat(join(dir, 'tls', 'ca.key'))).mode & 0o777).toBe(0o600);

  const pem = await readFile(issued.keyPath, 'utf8');
  expect(pem).toContain('BEGIN ENCRYPTED PRIVATE KEY');
  expect(() => createPrivateKey({ key: pem, passphrase: 'wrong' })).toThrow();
  expect(createPrivateKey({ key: pem, passphrase: 'secret-123' }).asymmetricKeyType).toBe('ec');
});

test('a CN that would not stay one name (a comma, a slash, a space) is refused', async () => {
  await expect(ca.issue('a,O=evil')).rejects.toThrow(/CN must be/);
  await expect(ca.issue('a/CN=b')).rejects.toThrow(/CN must be/);
  await expect(ca.issue('a b')).rejects.toThrow(/CN must be/);
});
