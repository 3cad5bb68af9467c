import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { BatonError } from '@baton/errors';
import type { HttpTls } from '@baton/runtime';

type Env = Readonly<Record<string, string | undefined>>;

const CERT = 'BATON_HTTP_TLS_CERT_FILE';
const KEY = 'BATON_HTTP_TLS_KEY_FILE';
const PASSWORD = 'BATON_HTTP_TLS_KEY_PASSWORD_FILE';

function invalid(variable: string, message: string): BatonError {
  return new BatonError('CONFIG_INVALID', message, { path: `/env/${variable}` });
}

function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The file's text; an unreadable file names the variable and the errno code, nothing of the file. */
function readSetting(variable: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw invalid(
      variable,
      `${variable} names a file that cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
}

/** OpenSSL's error code (ERR_OSSL_...) only: its message could quote what it failed to parse. */
function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

/**
 * BATON_HTTP_TLS_*: the gateway serves HTTPS when BATON_HTTP_TLS_CERT_FILE (PEM certificate, its
 * chain after it) and BATON_HTTP_TLS_KEY_FILE (PEM private key) are both set; neither: plain HTTP.
 * BATON_HTTP_TLS_KEY_PASSWORD_FILE holds the passphrase of an encrypted key (its trailing newline
 * trimmed). The files are read and the pair checked (the key matches the certificate and decrypts)
 * here, so a bad pair stops the gateway at start with CONFIG_INVALID naming the variable; no message
 * carries a file's content.
 */
export function loadHttpTls(env: Env): HttpTls | undefined {
  const certFile = setting(env, CERT);
  const keyFile = setting(env, KEY);
  const passwordFile = setting(env, PASSWORD);
  if (certFile === undefined && keyFile === undefined) {
    if (passwordFile !== undefined) throw invalid(PASSWORD, `${PASSWORD} is set without ${CERT} and ${KEY}`);
    return undefined;
  }
  if (keyFile === undefined) throw invalid(KEY, `${KEY} is required with ${CERT}`);
  if (certFile === undefined) throw invalid(CERT, `${CERT} is required with ${KEY}`);

  const cert = readSetting(CERT, certFile);
  if (!cert.includes('-----BEGIN CERTIFICATE-----')) throw invalid(CERT, `${CERT} holds no PEM certificate`);
  const key = readSetting(KEY, keyFile);
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) throw invalid(KEY, `${KEY} holds no PEM private key`);
  const encrypted = key.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----') || key.includes('Proc-Type: 4,ENCRYPTED');
  let passphrase: string | undefined;
  if (passwordFile !== undefined) {
    passphrase = readSetting(PASSWORD, passwordFile).replace(/\r?\n$/, '');
    if (passphrase === '') throw invalid(PASSWORD, `${PASSWORD} names an empty file`);
  } else if (encrypted) {
    throw invalid(KEY, `${KEY} holds an encrypted key: set ${PASSWORD}`);
  }

  try {
    createSecureContext({ cert });
  } catch (error) {
    throw invalid(CERT, `${CERT} holds no usable certificate (${codeOf(error)})`);
  }
  try {
    createSecureContext({ cert, key, ...(passphrase === undefined ? {} : { passphrase }) });
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ERR_OSSL_X509_KEY_VALUES_MISMATCH') {
      throw invalid(KEY, `${KEY} holds a key that does not match the certificate of ${CERT}`);
    }
    if (code === 'ERR_OSSL_BAD_DECRYPT' && passphrase !== undefined) {
      throw invalid(PASSWORD, `${PASSWORD} does not decrypt the key of ${KEY}`);
    }
    throw invalid(KEY, `${KEY} holds no usable private key (${code})`);
  }
  return passphrase === undefined ? { cert, key } : { cert, key, passphrase };
}
