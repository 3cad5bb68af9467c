import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import { formatContextUri, parseContextUri } from './context-uri.js';

const TOPIC = 'baton.contexts';

function refusal(uri: string, storeTopic = TOPIC): unknown {
  try {
    parseContextUri(uri, storeTopic);
  } catch (error) {
    return error;
  }
  throw new Error(`${uri} was accepted`);
}

describe('context uris', () => {
  it('round-trips a location, offsets beyond 2^53 included', () => {
    const location = { topic: TOPIC, partition: 2, offset: 9_007_199_254_740_993n };
    const uri = formatContextUri(location);
    expect(uri).toBe('kafka://baton.contexts/2/9007199254740993');
    expect(parseContextUri(uri, TOPIC)).toEqual(location);
  });

  it.each([
    'kafka://baton.contexts/0',
    'kafka://baton.contexts/0/1/2',
    'kafka://baton.contexts/-1/0',
    'kafka://baton.contexts/0/01',
    'kafka://baton.contexts/0/1.5',
    'kafka://baton.contexts/0/',
    'kafka:///0/0',
    'kafka://baton contexts/0/0',
    's3://baton.contexts/0/0',
    'https://example.com/context.json',
    ' kafka://baton.contexts/0/0',
    '',
  ])('refuses %j as CONTEXT_REF_INVALID at the uri', (uri) => {
    const error = refusal(uri);
    expect(hasErrorCode(error, 'CONTEXT_REF_INVALID')).toBe(true);
    expect(error).toMatchObject({ retriable: false, path: '/payload/context_ref/uri', details: { uri } });
  });

  it('refuses a partition or an offset outside the protocol’s int32 and int64', () => {
    expect(hasErrorCode(refusal('kafka://baton.contexts/2147483648/0'), 'CONTEXT_REF_INVALID')).toBe(true);
    expect(hasErrorCode(refusal('kafka://baton.contexts/0/9223372036854775808'), 'CONTEXT_REF_INVALID')).toBe(true);
    expect(parseContextUri('kafka://baton.contexts/2147483647/9223372036854775807', TOPIC)).toEqual({
      topic: TOPIC,
      partition: 2_147_483_647,
      offset: 9_223_372_036_854_775_807n,
    });
  });

  it('refuses a uri that names another topic than the store’s', () => {
    const error = refusal('kafka://baton.events/0/0');
    expect(hasErrorCode(error, 'CONTEXT_REF_INVALID')).toBe(true);
    expect((error as Error).message).toContain('names topic baton.events, not the context store');
  });
});
