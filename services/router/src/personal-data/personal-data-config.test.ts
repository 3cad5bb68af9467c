import { describe, expect, it } from 'vitest';
import { loadPersonalDataConfig } from './personal-data-config.js';

describe('the router’s personal data setting', () => {
  it('is off unless BATON_PII_REQUIRED is true, and then holds the key ring', () => {
    expect(loadPersonalDataConfig({})).toEqual({ required: false, keyRingFile: undefined });
    expect(loadPersonalDataConfig({ BATON_PII_REQUIRED: 'false', BATON_PII_KEYRING_FILE: '/k.json' })).toEqual({
      required: false,
      keyRingFile: '/k.json',
    });
    expect(loadPersonalDataConfig({ BATON_PII_REQUIRED: 'TRUE', BATON_PII_KEYRING_FILE: '/k.json' })).toEqual({
      required: true,
      keyRingFile: '/k.json',
    });
  });

  it('refuses another value, and true without a key ring, with CONFIG_INVALID naming the variable', () => {
    expect(() => loadPersonalDataConfig({ BATON_PII_REQUIRED: 'yes' })).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        path: '/env/BATON_PII_REQUIRED',
        message: 'BATON_PII_REQUIRED must be true or false',
      }),
    );
    expect(() => loadPersonalDataConfig({ BATON_PII_REQUIRED: 'true' })).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        path: '/env/BATON_PII_REQUIRED',
        message:
          'BATON_PII_REQUIRED=true needs BATON_PII_KEYRING_FILE: the router encrypts the personal fields of what it refuses with it',
      }),
    );
  });
});
