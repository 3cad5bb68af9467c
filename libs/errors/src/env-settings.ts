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
