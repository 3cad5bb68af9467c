import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HotCounter } from './hot-counter.js';

const counterOn = (registry: Registry) =>
  new HotCounter({ name: 'test_total', help: 'a test', labelNames: ['kind', 'code'], registers: [registry] });

describe('HotCounter', () => {
  it('shows on a scrape what was counted before it, by label values, in the exposition format', async () => {
    const registry = new Registry();
    const counter = counterOn(registry);
    counter.inc('a', 'x');
    counter.inc('a', 'x');
    counter.inc('a', 'y');
    counter.inc('b', 'x');
    expect(await registry.metrics()).toBe(
      [
        '# HELP test_total a test',
        '# TYPE test_total counter',
        'test_total{kind="a",code="x"} 2',
        'test_total{kind="a",code="y"} 1',
        'test_total{kind="b",code="x"} 1',
        '',
      ].join('\n'),
    );
  });

  it('keeps counting across scrapes: each count is added once', async () => {
    const registry = new Registry();
    const counter = counterOn(registry);
    counter.inc('a', 'x');
    await registry.metrics();
    counter.inc('a', 'x');
    counter.inc('a', 'x');
    const [metric] = await registry.getMetricsAsJSON();
    expect(metric?.values).toEqual([{ labels: { kind: 'a', code: 'x' }, value: 3 }]);
    expect((await registry.getMetricsAsJSON())[0]?.values).toEqual([{ labels: { kind: 'a', code: 'x' }, value: 3 }]);
  });

  it('refuses label values that do not match its label names, and a counter without labels', () => {
    const counter = counterOn(new Registry());
    expect(() => counter.inc('a')).toThrow('test_total takes 2 label values, not 1');
    expect(
      () => new HotCounter({ name: 'bare_total', help: 'no labels', labelNames: [], registers: [new Registry()] }),
    ).toThrow('bare_total: a HotCounter needs labels; use a Counter');
  });
});
