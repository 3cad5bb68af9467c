import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BatonError } from '@baton/errors';

const run = promisify(execFile);

/** Where a certificate and its private key were written: PEM files, the key readable by its owner alone. */
export interface IssuedCertificate {
  /** The certificate followed by the CA's, the chain a TLS peer presents. */
  certPath: string;
  /** PKCS#8, unencrypted unless the issue asked for a password. */
  keyPath: string;
}

export interface IssueOptions {
  /** subjectAltName entries, e.g. ['DNS:localhost', 'IP:127.0.0.1']; none for a client certificate. */
  altNames?: string[];
  /** Encrypts the key (PKCS#8, PBE-SHA1-3DES, which Java 17 reads) with this password. */
  keyPassword?: string;
}

/** A throwaway certificate authority whose key never leaves its directory. */
export interface CertificateAuthority {
  /** The CA's self-signed certificate: what clients and the broker trust. */
  readonly caPath: string;
  /** A certificate for `CN=<cn>`, signed by this CA, usable for TLS servers and clients alike. */
  issue(cn: string, options?: IssueOptions): Promise<IssuedCertificate>;
}

/** A CN that stays one RDN and maps to a Kafka principal as it is: no '/', ',', '=', '+', spaces. */
const SIMPLE_CN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const VALID_DAYS = '7';

/** openssl req's arguments for a new EC P-256 key, written unencrypted to `keyPath`. */
function newEcKey(keyPath: string): string[] {
  return ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-noenc', '-keyout', keyPath];
}

/**
 * Makes a certificate authority in `dir` with `openssl` (run directly, never through a shell): an
 * EC P-256 key and a self-signed CA certificate. Everything it writes, and every certificate it
 * issues, stays in `dir`; private keys are mode 0600.
 */
export async function createCertificateAuthority(dir: string, name = 'baton-local-ca'): Promise<CertificateAuthority> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const caKeyPath = join(dir, 'ca.key');
  const caPath = join(dir, 'ca.pem');
  await privateFile(caKeyPath);
  await openssl([
    'req',
    '-x509',
    '-new',
    ...newEcKey(caKeyPath),
    '-out',
    caPath,
    '-days',
    VALID_DAYS,
    '-subj',
    `/CN=${checkedCn(name)}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await chmod(caKeyPath, 0o600);

  const issue = async (cn: string, options: IssueOptions = {}): Promise<IssuedCertificate> => {
    checkedCn(cn);
    // A unique stem per certificate: issuing the same CN twice yields two files, not a clash.
    const stem = join(dir, `${cn}-${randomBytes(4).toString('hex')}`);
    const keyPath = `${stem}.key`;
    const csrPath = `${stem}.csr`;
    const extPath = `${stem}.ext`;
    const certPath = `${stem}.pem`;
    await privateFile(keyPath);
    await openssl(['req', '-new', ...newEcKey(keyPath), '-subj', `/CN=${cn}`, '-out', csrPath]);
    const extensions = [
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth,clientAuth',
      ...(options.altNames?.length ? [`subjectAltName=${options.altNames.join(',')}`] : []),
    ];
    await writeFile(extPath, `${extensions.join('\n')}\n`);
    const leafPath = `${stem}.leaf.pem`;
    await openssl([
      'x509',
      '-req',
      '-in',
      csrPath,
      '-CA',
      caPath,
      '-CAkey',
      caKeyPath,
      '-set_serial',
      `0x${randomBytes(16).toString('hex')}`,
      '-days',
      VALID_DAYS,
      '-extfile',
      extPath,
      '-out',
      leafPath,
    ]);
    await writeFile(certPath, `${await readFile(leafPath, 'utf8')}${await readFile(caPath, 'utf8')}`);
    if (options.keyPassword !== undefined) await encryptKey(keyPath, options.keyPassword);
    await chmod(keyPath, 0o600);
    return { certPath, keyPath };
  };

  return { caPath, issue };
}

/**
 * Rewrites the PKCS#8 key at `keyPath` encrypted with `password`, which reaches openssl through a
 * 0600 file, never its argv.
 */
async function encryptKey(keyPath: string, password: string): Promise<void> {
  const passwordPath = `${keyPath}.password`;
  const encryptedPath = `${keyPath}.encrypted`;
  await privateFile(passwordPath, `${password}\n`);
  await privateFile(encryptedPath);
  await openssl([
    'pkcs8',
    '-topk8',
    '-in',
    keyPath,
    '-out',
    encryptedPath,
    // PKCS#5 v1 / PKCS#12 PBE with 3DES: Java 17's SunJCE has no SecretKeyFactory for PBES2
    // (AES), so Kafka fails to load such a key ("PBES2 SecretKeyFactory not available").
    '-v1',
    'PBE-SHA1-3DES',
    '-passout',
    `file:${passwordPath}`,
  ]);
  await writeFile(keyPath, await readFile(encryptedPath));
  await writeFile(passwordPath, '');
}

function checkedCn(cn: string): string {
  if (!SIMPLE_CN.test(cn)) {
    throw new BatonError(
      'CONFIG_INVALID',
      `A certificate CN must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit: ${JSON.stringify(cn)}`,
    );
  }
  return cn;
}

/** Creates (or empties) a file only its owner can read, before anything secret goes in. */
async function privateFile(path: string, content = ''): Promise<void> {
  await writeFile(path, content, { mode: 0o600 });
  await chmod(path, 0o600);
}

async function openssl(args: string[]): Promise<void> {
  try {
    await run('openssl', args, { timeout: 30_000 });
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    throw new BatonError(
      'INFRA_START_FAILED',
      `openssl ${args[0]} failed: ${typeof stderr === 'string' && stderr !== '' ? stderr.trim() : String(error)}`,
      { cause: error },
    );
  }
}
