import { describe, expect, it } from 'vitest';
import {
  authenticate,
  mayRead,
  maySeePersonalData,
  parseApiKeys,
  presentedToken,
  unboundPublisherWarnings,
} from './api-keys.js';

describe('API keys', () => {
  const keys = parseApiKeys('ops:s3cret:operator, ci:t0ken:publisher+viewer');

  it('reads name:token:role+role entries and keeps only a digest of each token', () => {
    expect(keys.map((key) => [key.name, [...key.roles]])).toEqual([
      ['ops', ['operator']],
      ['ci', ['publisher', 'viewer']],
    ]);
    expect(JSON.stringify(keys)).not.toContain('s3cret');
  });

  it('authenticates a known token and nothing else', () => {
    expect(authenticate(keys, 't0ken')?.name).toBe('ci');
    expect(authenticate(keys, 's3cret')?.name).toBe('ops');
    expect(authenticate(keys, 'guess')).toBeUndefined();
    expect(authenticate([], 's3cret')).toBeUndefined();
  });

  it('takes the token from a bearer header or X-API-Key', () => {
    expect(presentedToken({ authorization: 'Bearer abc' })).toBe('abc');
    expect(presentedToken({ authorization: 'bearer   abc' })).toBe('abc');
    expect(presentedToken({ 'x-api-key': 'xyz' })).toBe('xyz');
    expect(presentedToken({ authorization: 'Basic abc' })).toBeUndefined();
    expect(presentedToken({})).toBeUndefined();
  });

  it('lets operators read as viewers do, and publishers only publish', () => {
    expect(mayRead(authenticate(keys, 's3cret')!)).toBe(true);
    expect(mayRead({ name: 'p', roles: new Set(['publisher']) })).toBe(false);
  });

  it('shows personal data in clear only to the personal-data role, which is no reading right by itself', () => {
    const [support, ops] = parseApiKeys('support:t1:viewer+personal-data,ops:t2:operator');
    expect(maySeePersonalData(authenticate([support!], 't1')!)).toBe(true);
    expect(mayRead(authenticate([support!], 't1')!)).toBe(true);
    expect(maySeePersonalData(authenticate([ops!], 't2')!)).toBe(false);
    expect(mayRead({ name: 'p', roles: new Set(['personal-data']) })).toBe(false);
  });

  it('refuses malformed entries with CONFIG_INVALID, naming the entry but never its token', () => {
    expect(() => parseApiKeys('ops:s3cret')).toThrowError(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/BATON_API_KEYS/0' }),
    );
    const unknownRole = (() => {
      try {
        parseApiKeys('a:b:viewer,ops:s3cret:admin');
      } catch (error) {
        return error as Error & { code: string; path: string };
      }
    })();
    expect(unknownRole).toMatchObject({ code: 'CONFIG_INVALID', path: '/env/BATON_API_KEYS/1' });
    expect(unknownRole?.message).toContain('admin');
    expect(unknownRole?.message).not.toContain('s3cret');
    expect(() => parseApiKeys('a:x:viewer,a:y:viewer')).toThrowError(/names "a" twice/);
  });

  it('reads an optional senders=a|b field binding a key to the sender ids it may publish as', () => {
    const [bound, free] = parseApiKeys('bot:t0k:publisher:senders=triage|billing, ops:s3cret:operator');
    expect([...(bound?.senders ?? [])]).toEqual(['triage', 'billing']);
    expect(authenticate([bound!], 't0k')?.senders).toEqual(new Set(['triage', 'billing']));
    expect(free?.senders).toBeUndefined();
    for (const entry of ['bot:t0k:publisher:triage', 'bot:t0k:publisher:senders=', 'bot:t0k:publisher:senders=a:b']) {
      expect(() => parseApiKeys(entry)).toThrowError(
        expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/BATON_API_KEYS/0' }),
      );
    }
  });

  it('reads senders=* as a key that may publish as any sender, and refuses * among named senders', () => {
    const [any] = parseApiKeys('ops-bot:t0k:publisher:senders=*');
    expect(any?.senders).toBeUndefined();
    expect(authenticate([any!], 't0k')?.senders).toBeUndefined();
    expect(() => parseApiKeys('bot:t0k:publisher:senders=user|*')).toThrowError(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        path: '/env/BATON_API_KEYS/0',
        message: 'BATON_API_KEYS entry "bot" has a fourth field that is not senders=a|b or senders=*',
      }),
    );
  });

  it('warns once for each key that may publish as any sender, whether by senders=* or by no senders field', () => {
    const keys = parseApiKeys(
      [
        'bound:t1:publisher:senders=user',
        'star:t2:publisher+viewer:senders=*',
        'bare:t3:viewer+publisher',
        'reader:t4:viewer+operator',
        'reader-any:t5:viewer:senders=*',
      ].join(','),
    );
    expect(keys.map((key) => key.unbound)).toEqual([undefined, 'explicit', 'omitted', undefined, undefined]);
    expect(unboundPublisherWarnings(keys)).toEqual([
      'API key "star" may publish as any sender (senders=*), internal agents included',
      'API key "bare" is bound to no sender, so it may publish as any, internal agents included: add senders=a|b, or senders=* to mean it',
    ]);
    expect(
      unboundPublisherWarnings(parseApiKeys('bound:t1:publisher:senders=user|customer_service_agent_001')),
    ).toEqual([]);
    expect(JSON.stringify(unboundPublisherWarnings(keys))).not.toMatch(/t[1-5]/);
  });
});
