import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BatonError } from './baton-error.js';
import { configInvalid, pemFileSetting, secretSetting } from './env-settings.js';

const SECRET = 'pa55-Word-never-shown';
const dir = mkdtempSync(join(tmpdir(), 'baton-env-settings-'));
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const secretFile = file('secret', `${SECRET}\n`);
const crlfSecretFile = file('secret-crlf', `${SECRET}\r\n`);
const certificate = file('cert.pem', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
const pkcs8Key = file('key.pem', '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n');
const encryptedKey = file(
  'enc.pem',
  '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIE\n-----END ENCRYPTED PRIVATE KEY-----\n',
);
const rsaKey = file('rsa.pem', '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n');
const notPem = file('not.pem', SECRET);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function thrown(read: () => unknown): BatonError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(BatonError);
    return error as BatonError;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('configInvalid', () => {
  it('is CONFIG_INVALID with the path of the variable', () => {
    const error = configInvalid('SOME_VAR', 'SOME_VAR is wrong');
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toBe('/env/SOME_VAR');
    expect(error.message).toBe('SOME_VAR is wrong');
  });
});

describe('secretSetting', () => {
  it('is undefined when neither the variable nor its _FILE is set, or both are empty', () => {
    expect(secretSetting({}, 'A_PASSWORD')).toBeUndefined();
    expect(secretSetting({ A_PASSWORD: '', A_PASSWORD_FILE: '' }, 'A_PASSWORD')).toBeUndefined();
  });

  it('reads the value of the variable as it is', () => {
    expect(secretSetting({ A_PASSWORD: ` ${SECRET} ` }, 'A_PASSWORD')).toBe(` ${SECRET} `);
  });

  it('reads the file _FILE names, without its trailing newline', () => {
    expect(secretSetting({ A_PASSWORD_FILE: secretFile }, 'A_PASSWORD')).toBe(SECRET);
    expect(secretSetting({ A_PASSWORD_FILE: crlfSecretFile }, 'A_PASSWORD')).toBe(SECRET);
  });

  it('refuses both the variable and its _FILE, naming _FILE', () => {
    const error = thrown(() => secretSetting({ A_PASSWORD: SECRET, A_PASSWORD_FILE: secretFile }, 'A_PASSWORD'));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toBe('/env/A_PASSWORD_FILE');
    expect(error.message).toContain('A_PASSWORD_FILE');
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it('refuses an unreadable file with the errno code only', () => {
    const error = thrown(() => secretSetting({ A_PASSWORD_FILE: join(dir, 'missing') }, 'A_PASSWORD'));
    expect(error.path).toBe('/env/A_PASSWORD_FILE');
    expect(error.message).toBe('A_PASSWORD_FILE names a file that cannot be read: ENOENT');
  });

  it.skipIf(process.getuid?.() === 0)('refuses a file it may not read (EACCES)', () => {
    const locked = file('locked', SECRET);
    chmodSync(locked, 0o000);
    const error = thrown(() => secretSetting({ A_PASSWORD_FILE: locked }, 'A_PASSWORD'));
    expect(error.message).toBe('A_PASSWORD_FILE names a file that cannot be read: EACCES');
  });
});

describe('pemFileSetting', () => {
  it('is undefined when the variable is unset or empty', () => {
    expect(pemFileSetting({}, 'A_CA_FILE', 'CERTIFICATE')).toBeUndefined();
    expect(pemFileSetting({ A_CA_FILE: '' }, 'A_CA_FILE', 'CERTIFICATE')).toBeUndefined();
  });

  it('reads a certificate file whole', () => {
    expect(pemFileSetting({ A_CA_FILE: certificate }, 'A_CA_FILE', 'CERTIFICATE')).toBe(
      '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
    );
  });

  it.each([pkcs8Key, encryptedKey, rsaKey])('reads a private key file (%s)', (path) => {
    expect(pemFileSetting({ A_KEY_FILE: path }, 'A_KEY_FILE', 'PRIVATE KEY')).toContain('PRIVATE KEY-----');
  });

  it.each([
    ['a file that is not PEM', notPem, 'CERTIFICATE'],
    ['a key where a certificate belongs', pkcs8Key, 'CERTIFICATE'],
    ['a certificate where a key belongs', certificate, 'PRIVATE KEY'],
  ] as const)('refuses %s, naming the variable and not the content', (_name, path, label) => {
    const error = thrown(() => pemFileSetting({ A_FILE: path }, 'A_FILE', label));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toBe('/env/A_FILE');
    expect(error.message).toBe(`A_FILE holds no PEM ${label.toLowerCase()}`);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it('refuses an unreadable file with the errno code only', () => {
    const error = thrown(() => pemFileSetting({ A_FILE: join(dir, 'missing.pem') }, 'A_FILE', 'CERTIFICATE'));
    expect(error.message).toBe('A_FILE names a file that cannot be read: ENOENT');
  });
});
