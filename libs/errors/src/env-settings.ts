import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { BatonError } from './baton-error.js';

/** A process environment, or the part of one a setting is read from. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The error of a bad environment variable: CONFIG_INVALID, its path `/env/<VARIABLE>`. The message
 * names the variable and never quotes a secret's value.
 */
export function configInvalid(variable: string, message: string): BatonError {
  return new BatonError('CONFIG_INVALID', message, { path: `/env/${variable}` });
}

/** The variable's value, or undefined when it is unset or empty (an empty value is how a shell unsets one). */
export function optionalSetting(env: Env, name: string): string | undefined {
  return env[name] || undefined;
}

/**
 * A file a variable names, as text. An unreadable file is CONFIG_INVALID naming the variable and
 * only the errno code (ENOENT, EACCES): the message carries neither the content nor a stack.
 */
export function readSettingFile(variable: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw configInvalid(
      variable,
      `${variable} names a file that cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
}

/**
 * A secret given either as NAME or as NAME_FILE, the path of a file holding it (a mounted
 * Kubernetes or Docker secret, which keeps it out of `ps` and the process environment). Not both:
 * which one wins would be a guess. The file's trailing newline is dropped, since editors and
 * `echo` add one that is no part of the secret. Undefined when neither is set.
 */
export function secretSetting(env: Env, name: string): string | undefined {
  const fileVariable = `${name}_FILE`;
  const value = optionalSetting(env, name);
  const file = optionalSetting(env, fileVariable);
  if (value !== undefined && file !== undefined) {
    throw configInvalid(fileVariable, `set ${name} or ${fileVariable}, not both`);
  }
  if (file === undefined) return value;
  return readSettingFile(fileVariable, file).replace(/\r?\n$/, '');
}

/** The PEM block types a setting file may be asked to hold. */
export type PemLabel = 'CERTIFICATE' | 'PRIVATE KEY';

/**
 * The PEM text of the file NAME names, checked to hold at least one block of `label`: a CA bundle
 * or certificate chain for 'CERTIFICATE'; for 'PRIVATE KEY', a PKCS#8 key (encrypted or not) or
 * a traditional RSA or EC one. Catching a swapped or empty file here names the variable; TLS would
 * later fail with an OpenSSL message that names neither. Undefined when NAME is unset.
 */
export function pemFileSetting(env: Env, name: string, label: PemLabel): string | undefined {
  const file = optionalSetting(env, name);
  if (file === undefined) return undefined;
  const pem = readSettingFile(name, file);
  if (!PEM_BEGIN[label].test(pem)) {
    throw configInvalid(name, `${name} holds no PEM ${label.toLowerCase()}`);
  }
  return pem;
}

const PEM_BEGIN: Record<PemLabel, RegExp> = {
  CERTIFICATE: /-----BEGIN CERTIFICATE-----/,
  'PRIVATE KEY': /-----BEGIN (?:ENCRYPTED |RSA |EC )?PRIVATE KEY-----/,
};

/** The variables of a certificate and its private key: PEM files, and the key's password. */
export interface KeyPairVariables {
  /** Names the PEM certificate (its chain may follow it). */
  cert: string;
  /** Names the PEM private key. */
  key: string;
  /** The key's password, given as this variable or as its _FILE (see secretSetting). */
  password: string;
}

/** A certificate and its private key, as PEM text, and the password of an encrypted key. */
export interface KeyPair {
  cert: string;
  key: string;
  password?: string;
}

/**
 * A certificate and its key from the files `cert` and `key` name: both or neither (undefined),
 * the password (`password` or `password`_FILE) only with them. The files are read and the pair
 * checked now: the key opens (with the password when it is encrypted) and is the certificate's.
 * So a swapped file, a missing or wrong password, or a key of another pair stops the start with
 * CONFIG_INVALID naming the variable to fix, rather than every TLS handshake failing later with an
 * OpenSSL message that names none. No message carries a file's content, the password, or
 * OpenSSL's own text.
 */
export function keyPairSetting(env: Env, variables: KeyPairVariables): KeyPair | undefined {
  const { cert: certVariable, key: keyVariable, password: passwordVariable } = variables;
  const cert = pemFileSetting(env, certVariable, 'CERTIFICATE');
  const key = pemFileSetting(env, keyVariable, 'PRIVATE KEY');
  const passwordFileVariable = `${passwordVariable}_FILE`;
  const passwordSet = [passwordVariable, passwordFileVariable].find((name) => optionalSetting(env, name) !== undefined);
  if (cert === undefined && key === undefined) {
    if (passwordSet !== undefined) {
      throw configInvalid(passwordSet, `${passwordSet} is set without ${certVariable} and ${keyVariable}`);
    }
    return undefined;
  }
  if (key === undefined)
    throw configInvalid(keyVariable, `${certVariable} is set without ${keyVariable}: set both or neither`);
  if (cert === undefined)
    throw configInvalid(certVariable, `${keyVariable} is set without ${certVariable}: set both or neither`);

  const password = secretSetting(env, passwordVariable);
  if (password === '') throw configInvalid(passwordFileVariable, `${passwordFileVariable} names an empty file`);
  const encrypted = ENCRYPTED_KEY.test(key);
  if (encrypted && password === undefined) {
    throw configInvalid(
      passwordVariable,
      `${keyVariable} holds an encrypted key: set ${passwordVariable} or ${passwordFileVariable}`,
    );
  }

  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(password === undefined ? key : { key, passphrase: password });
  } catch {
    if (encrypted) {
      const given = passwordSet ?? passwordVariable;
      throw configInvalid(given, `${given} does not open the encrypted key of ${keyVariable}`);
    }
    throw configInvalid(keyVariable, `${keyVariable} holds no usable private key`);
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw configInvalid(certVariable, `${certVariable} holds no usable certificate`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw configInvalid(keyVariable, `${keyVariable} is not the key of the certificate in ${certVariable}`);
  }
  return password === undefined ? { cert, key } : { cert, key, password };
}

/** PKCS#8 encrypted, or a traditional PEM key with an encryption header. */
const ENCRYPTED_KEY = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/;
