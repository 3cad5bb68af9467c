import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import { loadNegotiationConfig } from './negotiation-config.js';

function thrown(load: () => unknown): unknown {
  try {
    load();
  } catch (error) {
    return error;
  }
  return expect.fail('expected CONFIG_INVALID');
}

describe('loadNegotiationConfig', () => {
  it('defaults: unlimited capacity, 5 s estimates, contexts inline up to 256 KiB', () => {
    expect(loadNegotiationConfig({}, {})).toEqual({
      capacity: Number.POSITIVE_INFINITY,
      estimatedHandoffSeconds: 5,
      inlineMaxBytes: 262_144,
    });
  });

  it('takes the definition’s options', () => {
    expect(loadNegotiationConfig({ capacity: 4, estimatedHandoffSeconds: 0.5, inlineMaxBytes: 0 }, {})).toEqual({
      capacity: 4,
      estimatedHandoffSeconds: 0.5,
      inlineMaxBytes: 0,
    });
  });

  it('lets the environment override capacity and the inline limit, 0 capacity included (a drain)', () => {
    const env = { BATON_AGENT_CAPACITY: '0', BATON_CONTEXT_INLINE_MAX_BYTES: '65536' };
    expect(loadNegotiationConfig({ capacity: 10, inlineMaxBytes: 1024 }, env)).toMatchObject({
      capacity: 0,
      inlineMaxBytes: 65_536,
    });
  });

  it.each([
    [{ BATON_AGENT_CAPACITY: '-1' }, {}],
    [{ BATON_AGENT_CAPACITY: 'many' }, {}],
    [{ BATON_CONTEXT_INLINE_MAX_BYTES: '2000000' }, {}],
    [{}, { capacity: 1.5 }],
    [{}, { inlineMaxBytes: 2_000_000 }],
    [{}, { estimatedHandoffSeconds: -1 }],
  ])('refuses %j with options %j as CONFIG_INVALID', (env, options) => {
    expect(
      hasErrorCode(
        thrown(() => loadNegotiationConfig(options, env)),
        'CONFIG_INVALID',
      ),
    ).toBe(true);
  });
});
