import { describe, expect, it } from 'vitest';
import { DEFAULT_MESSAGES, benchArgs } from './bench-args.js';

describe('benchArgs', () => {
  it('defaults N, derives M from it, and leaves the idle window to measureIdleCpu', () => {
    expect(benchArgs([], {})).toEqual({
      messages: DEFAULT_MESSAGES,
      negotiations: Math.max(100, DEFAULT_MESSAGES / 10),
      idleSeconds: undefined,
      brokers: 1,
    });
  });

  it('takes --brokers (or BENCH_BROKERS) apart from N and M', () => {
    expect(benchArgs(['3000', '--brokers', '3', '250'], {})).toMatchObject({
      messages: 3000,
      negotiations: 250,
      brokers: 3,
    });
    expect(benchArgs(['--brokers=3'], {})).toMatchObject({ messages: DEFAULT_MESSAGES, brokers: 3 });
    expect(benchArgs([], { BENCH_BROKERS: '3' }).brokers).toBe(3);
  });

  it('takes N and M from the arguments first, then the environment', () => {
    expect(benchArgs(['3000', '250'], { BENCH_MESSAGES: '9', BENCH_NEGOTIATIONS: '9' })).toMatchObject({
      messages: 3000,
      negotiations: 250,
    });
    expect(benchArgs([], { BENCH_MESSAGES: '40000' })).toMatchObject({ messages: 40000, negotiations: 4000 });
    expect(benchArgs(['500'], {})).toMatchObject({ messages: 500, negotiations: 100 });
  });

  it('reads BENCH_IDLE_SECONDS, 0 to skip the idle row', () => {
    expect(benchArgs([], { BENCH_IDLE_SECONDS: '0' }).idleSeconds).toBe(0);
    expect(benchArgs([], { BENCH_IDLE_SECONDS: '30' }).idleSeconds).toBe(30);
  });

  it('refuses what is not a count, naming it', () => {
    expect(() => benchArgs(['lots'], {})).toThrow('N (handoffs per row) must be an integer of at least 1, not "lots"');
    expect(() => benchArgs(['100', '0'], {})).toThrow('M (negotiated handoffs)');
    expect(() => benchArgs([], { BENCH_IDLE_SECONDS: '-1' })).toThrow('BENCH_IDLE_SECONDS');
  });
});
