import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HotHistogram } from './hot-histogram.js';

const BUCKETS = [0.005, 0.01, 0.1, 1];
const config = (registry: Registry) => ({
  name: 'test_seconds',
  help: 'a test',
  labelNames: ['kind', 'code'],
  buckets: BUCKETS,
  registers: [registry],
});

/** The same observations, as [value, kind, code]. */
const OBSERVATIONS: [number, string, string][] = [
  [0.003, 'a', 'x'],
  [0.005, 'a', 'x'],
  [0.05, 'a', 'x'],
  [7, 'a', 'x'],
  [0.2, 'b', 'y'],
  [0.01, 'a', 'y'],
];

describe('HotHistogram', () => {
  it("gives a scrape and the JSON view exactly what prom-client's Histogram gives for the same observations", async () => {
    const hotRegistry = new Registry();
    const hot = new HotHistogram(config(hotRegistry));
    const plainRegistry = new Registry();
    const plain = new Histogram(config(plainRegistry));
    for (const [value, kind, code] of OBSERVATIONS) {
      hot.observe(value, kind, code);
      plain.observe({ kind, code }, value);
    }
    const text = await hotRegistry.metrics();
    expect(text).toBe(await plainRegistry.metrics());
    expect(text).toContain('test_seconds_bucket{le="0.01",kind="a",code="x"} 2\n');
    expect(text).toContain('test_seconds_bucket{le="+Inf",kind="a",code="x"} 4\n');
    expect(text).toContain('test_seconds_sum{kind="a",code="x"} 7.058\n');
    expect(await hotRegistry.getMetricsAsJSON()).toEqual(await plainRegistry.getMetricsAsJSON());
  });

  it('forgets its series when the registry resets its metrics', async () => {
    const registry = new Registry();
    const hot = new HotHistogram(config(registry));
    hot.observe(0.5, 'a', 'x');
    registry.resetMetrics();
    hot.observe(0.5, 'b', 'y');
    const [metric] = await registry.getMetricsAsJSON();
    const values = (metric?.values ?? []) as { metricName?: string }[];
    expect(values.filter((value) => value.metricName === 'test_seconds_count')).toEqual([
      { labels: { kind: 'b', code: 'y' }, value: 1, metricName: 'test_seconds_count' },
    ]);
  });

  it('refuses wrong label values, a value that is not finite, unordered buckets and no labels', () => {
    const hot = new HotHistogram(config(new Registry()));
    expect(() => hot.observe(1, 'a')).toThrow('test_seconds takes 2 label values, not 1');
    expect(() => hot.observe(Number.NaN, 'a', 'x')).toThrow('test_seconds: value is not a finite number: NaN');
    expect(() => new HotHistogram({ ...config(new Registry()), buckets: [1, 0.5] })).toThrow(
      'test_seconds: buckets must be in ascending order',
    );
    expect(() => new HotHistogram({ ...config(new Registry()), labelNames: [] })).toThrow(
      'test_seconds: a HotHistogram needs labels; use a Histogram',
    );
  });
});
