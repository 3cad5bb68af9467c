import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BatonError } from '@baton/errors';
import { registryOptionsFromEnv } from './registry-options-from-env.js';

const SECRET = 's3cr3t-Value-never-shown';
const dir = mkdtempSync(join(tmpdir(), 'baton-registry-env-'));
const passwordFile = join(dir, 'password');
writeFileSync(passwordFile, `${SECRET}\n`);
const caFile = join(dir, 'ca.pem');
writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
const notPem = join(dir, 'not.pem');
writeFileSync(notPem, SECRET);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configError(env: Record<string, string>): BatonError {
  try {
    registryOptionsFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(BatonError);
    return error as BatonError;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('registryOptionsFromEnv', () => {
  it('reads a plain URL without credentials', () => {
    expect(registryOptionsFromEnv({ SCHEMA_REGISTRY_URL: 'http://127.0.0.1:8081' })).toStrictEqual({
      url: 'http://127.0.0.1:8081',
    });
  });

  it('takes an explicit url (a --registry flag) over the variable', () => {
    expect(registryOptionsFromEnv({ SCHEMA_REGISTRY_URL: 'http://a:1' }, 'http://b:2').url).toBe('http://b:2');
  });

  it('reads basic auth from the username and password', () => {
    const options = registryOptionsFromEnv({
      SCHEMA_REGISTRY_URL: 'https://registry.example',
      SCHEMA_REGISTRY_USERNAME: 'KEY',
      SCHEMA_REGISTRY_PASSWORD: SECRET,
    });
    expect(options.basicAuth).toStrictEqual({ username: 'KEY', password: SECRET });
  });

  it('reads the password from SCHEMA_REGISTRY_PASSWORD_FILE, its trailing newline trimmed', () => {
    const options = registryOptionsFromEnv({
      SCHEMA_REGISTRY_URL: 'https://registry.example',
      SCHEMA_REGISTRY_USERNAME: 'KEY',
      SCHEMA_REGISTRY_PASSWORD_FILE: passwordFile,
    });
    expect(options.basicAuth).toStrictEqual({ username: 'KEY', password: SECRET });
  });

  it('reads the CA bundle for an https URL', () => {
    const options = registryOptionsFromEnv({
      SCHEMA_REGISTRY_URL: 'https://registry.example',
      SCHEMA_REGISTRY_CA_FILE: caFile,
    });
    expect(options.ca).toContain('BEGIN CERTIFICATE');
  });

  const invalid: [string, Record<string, string>, string][] = [
    ['a missing URL', {}, '/env/SCHEMA_REGISTRY_URL'],
    ['a URL that is not http(s)', { SCHEMA_REGISTRY_URL: 'ftp://x' }, '/env/SCHEMA_REGISTRY_URL'],
    ['a URL that is not a URL', { SCHEMA_REGISTRY_URL: 'not a url' }, '/env/SCHEMA_REGISTRY_URL'],
    [
      'credentials in the URL',
      { SCHEMA_REGISTRY_URL: `https://KEY:${SECRET}@registry.example` },
      '/env/SCHEMA_REGISTRY_URL',
    ],
    [
      'both the password and its file',
      {
        SCHEMA_REGISTRY_URL: 'https://r',
        SCHEMA_REGISTRY_USERNAME: 'KEY',
        SCHEMA_REGISTRY_PASSWORD: SECRET,
        SCHEMA_REGISTRY_PASSWORD_FILE: passwordFile,
      },
      '/env/SCHEMA_REGISTRY_PASSWORD_FILE',
    ],
    [
      'a password without a username',
      { SCHEMA_REGISTRY_URL: 'https://r', SCHEMA_REGISTRY_PASSWORD: SECRET },
      '/env/SCHEMA_REGISTRY_USERNAME',
    ],
    [
      'a password file without a username',
      { SCHEMA_REGISTRY_URL: 'https://r', SCHEMA_REGISTRY_PASSWORD_FILE: passwordFile },
      '/env/SCHEMA_REGISTRY_USERNAME',
    ],
    [
      'a username without a password',
      { SCHEMA_REGISTRY_URL: 'https://r', SCHEMA_REGISTRY_USERNAME: 'KEY' },
      '/env/SCHEMA_REGISTRY_PASSWORD',
    ],
    [
      'a username with a colon',
      { SCHEMA_REGISTRY_URL: 'https://r', SCHEMA_REGISTRY_USERNAME: 'K:EY', SCHEMA_REGISTRY_PASSWORD: SECRET },
      '/env/SCHEMA_REGISTRY_USERNAME',
    ],
    [
      'an unreadable password file',
      {
        SCHEMA_REGISTRY_URL: 'https://r',
        SCHEMA_REGISTRY_USERNAME: 'KEY',
        SCHEMA_REGISTRY_PASSWORD_FILE: join(dir, 'missing'),
      },
      '/env/SCHEMA_REGISTRY_PASSWORD_FILE',
    ],
    [
      'an unreadable CA file',
      { SCHEMA_REGISTRY_URL: 'https://r', SCHEMA_REGISTRY_CA_FILE: join(dir, 'missing.pem') },
      '/env/SCHEMA_REGISTRY_CA_FILE',
    ],
    [
      'a CA file without a PEM certificate',
      { SCHEMA_REGISTRY_URL: 'https://r', SCHEMA_REGISTRY_CA_FILE: notPem },
      '/env/SCHEMA_REGISTRY_CA_FILE',
    ],
    [
      'a CA file with an http URL',
      { SCHEMA_REGISTRY_URL: 'http://r', SCHEMA_REGISTRY_CA_FILE: caFile },
      '/env/SCHEMA_REGISTRY_CA_FILE',
    ],
  ];

  it.each(invalid)('refuses %s with CONFIG_INVALID naming the variable, never the secret', (_name, env, path) => {
    const error = configError(env);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toBe(path);
    expect(error.message).toContain(path.slice('/env/'.length));
    expect(error.message).not.toContain(SECRET);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });
});
