import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, type IssuedCertificate } from '@baton/local-infra';
import { BatonError } from './baton-error.js';
import { configInvalid, keyPairSetting, pemFileSetting, secretSetting } from './env-settings.js';

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

  it('refuses a path that is no file (a directory) with its errno code, as root or not', () => {
    const error = thrown(() => secretSetting({ A_PASSWORD_FILE: dir }, 'A_PASSWORD'));
    expect(error.path).toBe('/env/A_PASSWORD_FILE');
    expect(error.message).toBe('A_PASSWORD_FILE names a file that cannot be read: EISDIR');
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

describe('keyPairSetting', () => {
  const VARIABLES = { cert: 'A_CERT_FILE', key: 'A_KEY_FILE', password: 'A_KEY_PASSWORD' };
  let pair: IssuedCertificate;
  let encrypted: IssuedCertificate;
  let other: IssuedCertificate;
  let caPath: string;
  let keyPasswordFile: string;
  beforeAll(async () => {
    const ca = await createCertificateAuthority(join(dir, 'ca'), 'baton-test-ca');
    caPath = ca.caPath;
    [pair, encrypted, other] = await Promise.all([
      ca.issue('localhost'),
      ca.issue('localhost', { keyPassword: SECRET }),
      ca.issue('other'),
    ]);
    keyPasswordFile = file('key-password', `${SECRET}\n`);
  });
  const read = (path: string): string => readFileSync(path, 'utf8');
  const setting = (env: Record<string, string>) => keyPairSetting(env, VARIABLES);

  it('is undefined when neither the certificate nor the key is set, or both are empty', () => {
    expect(setting({})).toBeUndefined();
    expect(setting({ A_CERT_FILE: '', A_KEY_FILE: '', A_KEY_PASSWORD: '', A_KEY_PASSWORD_FILE: '' })).toBeUndefined();
  });

  it('reads the certificate (with its chain) and the key', () => {
    expect(setting({ A_CERT_FILE: pair.certPath, A_KEY_FILE: pair.keyPath })).toStrictEqual({
      cert: read(pair.certPath),
      key: read(pair.keyPath),
    });
  });

  it.each([
    ['A_KEY_PASSWORD', () => SECRET],
    ['A_KEY_PASSWORD_FILE', () => keyPasswordFile],
  ])('reads an encrypted key with its password from %s', (variable, value) => {
    expect(
      setting({ A_CERT_FILE: encrypted.certPath, A_KEY_FILE: encrypted.keyPath, [variable]: value() }),
    ).toStrictEqual({ cert: read(encrypted.certPath), key: read(encrypted.keyPath), password: SECRET });
  });

  it('keeps a password given with a key that needs none', () => {
    expect(setting({ A_CERT_FILE: pair.certPath, A_KEY_FILE: pair.keyPath, A_KEY_PASSWORD: SECRET })?.password).toBe(
      SECRET,
    );
  });

  const refusals: [string, () => Record<string, string>, string, string][] = [
    [
      'a certificate without its key',
      () => ({ A_CERT_FILE: pair.certPath }),
      'A_KEY_FILE',
      'A_CERT_FILE is set without A_KEY_FILE: set both or neither',
    ],
    [
      'a key without its certificate',
      () => ({ A_KEY_FILE: pair.keyPath }),
      'A_CERT_FILE',
      'A_KEY_FILE is set without A_CERT_FILE: set both or neither',
    ],
    [
      'a password without the pair',
      () => ({ A_KEY_PASSWORD: SECRET }),
      'A_KEY_PASSWORD',
      'A_KEY_PASSWORD is set without A_CERT_FILE and A_KEY_FILE',
    ],
    [
      'a password file without the pair',
      () => ({ A_KEY_PASSWORD_FILE: keyPasswordFile }),
      'A_KEY_PASSWORD_FILE',
      'A_KEY_PASSWORD_FILE is set without A_CERT_FILE and A_KEY_FILE',
    ],
    [
      'an unreadable certificate file',
      () => ({ A_CERT_FILE: join(dir, 'missing.pem'), A_KEY_FILE: pair.keyPath }),
      'A_CERT_FILE',
      'A_CERT_FILE names a file that cannot be read: ENOENT',
    ],
    [
      'a directory for the key',
      () => ({ A_CERT_FILE: pair.certPath, A_KEY_FILE: dir }),
      'A_KEY_FILE',
      'A_KEY_FILE names a file that cannot be read: EISDIR',
    ],
    [
      'the files swapped',
      () => ({ A_CERT_FILE: pair.keyPath, A_KEY_FILE: pair.certPath }),
      'A_CERT_FILE',
      'A_CERT_FILE holds no PEM certificate',
    ],
    [
      'a certificate where the key belongs',
      () => ({ A_CERT_FILE: pair.certPath, A_KEY_FILE: caPath }),
      'A_KEY_FILE',
      'A_KEY_FILE holds no PEM private key',
    ],
    [
      'a key that does not parse',
      () => ({ A_CERT_FILE: pair.certPath, A_KEY_FILE: pkcs8Key }),
      'A_KEY_FILE',
      'A_KEY_FILE holds no usable private key',
    ],
    [
      'a certificate that does not parse',
      () => ({ A_CERT_FILE: certificate, A_KEY_FILE: pair.keyPath }),
      'A_CERT_FILE',
      'A_CERT_FILE holds no usable certificate',
    ],
    [
      'the key of another pair',
      () => ({ A_CERT_FILE: pair.certPath, A_KEY_FILE: other.keyPath }),
      'A_KEY_FILE',
      'A_KEY_FILE is not the key of the certificate in A_CERT_FILE',
    ],
    [
      'an encrypted key without its password',
      () => ({ A_CERT_FILE: encrypted.certPath, A_KEY_FILE: encrypted.keyPath }),
      'A_KEY_PASSWORD',
      'A_KEY_FILE holds an encrypted key: set A_KEY_PASSWORD or A_KEY_PASSWORD_FILE',
    ],
    [
      'a wrong password',
      () => ({ A_CERT_FILE: encrypted.certPath, A_KEY_FILE: encrypted.keyPath, A_KEY_PASSWORD: `${SECRET}-wrong` }),
      'A_KEY_PASSWORD',
      'A_KEY_PASSWORD does not open the encrypted key of A_KEY_FILE',
    ],
    [
      'a wrong password file',
      () => ({
        A_CERT_FILE: encrypted.certPath,
        A_KEY_FILE: encrypted.keyPath,
        A_KEY_PASSWORD_FILE: file('wrong', 'wrong-password\n'),
      }),
      'A_KEY_PASSWORD_FILE',
      'A_KEY_PASSWORD_FILE does not open the encrypted key of A_KEY_FILE',
    ],
    [
      'an empty password file',
      () => ({
        A_CERT_FILE: encrypted.certPath,
        A_KEY_FILE: encrypted.keyPath,
        A_KEY_PASSWORD_FILE: file('empty', '\n'),
      }),
      'A_KEY_PASSWORD_FILE',
      'A_KEY_PASSWORD_FILE names an empty file',
    ],
    [
      'an unreadable password file',
      () => ({
        A_CERT_FILE: encrypted.certPath,
        A_KEY_FILE: encrypted.keyPath,
        A_KEY_PASSWORD_FILE: join(dir, 'missing-password'),
      }),
      'A_KEY_PASSWORD_FILE',
      'A_KEY_PASSWORD_FILE names a file that cannot be read: ENOENT',
    ],
    [
      'both the password and its file',
      () => ({
        A_CERT_FILE: encrypted.certPath,
        A_KEY_FILE: encrypted.keyPath,
        A_KEY_PASSWORD: SECRET,
        A_KEY_PASSWORD_FILE: keyPasswordFile,
      }),
      'A_KEY_PASSWORD_FILE',
      'set A_KEY_PASSWORD or A_KEY_PASSWORD_FILE, not both',
    ],
  ];

  it.each(refusals)(
    'refuses %s with CONFIG_INVALID naming the variable, no key or password in it',
    (_name, env, variable, message) => {
      const error = thrown(() => setting(env()));
      expect([error.code, error.path, error.message]).toStrictEqual(['CONFIG_INVALID', `/env/${variable}`, message]);
      const said = JSON.stringify(error);
      for (const keyPath of [pair.keyPath, encrypted.keyPath, other.keyPath]) {
        for (const line of read(keyPath)
          .split('\n')
          .filter((text) => text !== '' && !text.startsWith('-----'))) {
          expect(said).not.toContain(line);
        }
      }
      expect(said).not.toContain(SECRET);
    },
  );
});
