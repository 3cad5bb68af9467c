import { describe, expect, it } from 'vitest';
import type { LatencySummary } from './stats.js';
import { benchRatios, checkTargets, type TargetInputs } from './targets.js';

const row = (throughputPerS: number, p50Ms = 10, p99Ms = 40): LatencySummary => ({
  count: 100,
  p50Ms,
  p95Ms: p99Ms,
  p99Ms,
  throughputPerS,
});

const inputs: TargetInputs = {
  rows: {
    'baton.routerHop': row(600),
    'baton.fullPath': row(400),
    'relay.transaction.oneHop': row(1000),
    'relay.transaction.twoHops': row(1000),
    'relay.batch.oneHop': row(2000),
    'relay.batch.twoHops': row(1600),
    'relay.per-record.oneHop': row(300),
    'relay.per-record.twoHops': row(200),
    'negotiated.toCompleted': row(41.5),
    slowHandler: row(26),
    'lightLoad.routerHop': row(20, 8, 30),
    'lightLoad.agentHop': row(20, 16, 60),
  },
  slowHandlerIdealPerS: 32,
  idleCpuPercent: { router: 0.4, 'sales-agent': 1.2, broker: 3 },
  peakRssMiB: { router: 120, bench_agent: 151, relay_batch_1: 400 },
  batonServices: ['router', 'bench_agent', 'tracker'],
};

const statusOf = (id: string) => checkTargets(inputs).find((check) => check.id === id);

describe('benchRatios', () => {
  it('divides each Baton row by each relay row of the same hops, and the slow handler by its ideal', () => {
    expect(benchRatios(inputs)).toEqual({
      'fullPath/relay.transaction.twoHops': 0.4,
      'routerHop/relay.transaction.oneHop': 0.6,
      'fullPath/relay.batch.twoHops': 0.25,
      'routerHop/relay.batch.oneHop': 0.3,
      'fullPath/relay.per-record.twoHops': 2,
      'routerHop/relay.per-record.oneHop': 2,
      'slowHandler/ideal': 26 / 32,
    });
  });

  it('gives null, not NaN or Infinity, for a row that is missing or did not move', () => {
    const ratios = benchRatios({
      ...inputs,
      rows: { 'baton.fullPath': row(400), 'relay.transaction.twoHops': row(0) },
    });
    expect(ratios['fullPath/relay.transaction.twoHops']).toBeNull();
    expect(ratios['routerHop/relay.transaction.oneHop']).toBeNull();
  });
});

describe('checkTargets', () => {
  it('marks each bound met or missed by its direction', () => {
    expect(statusOf('fullPathVsTransactionRelay')).toMatchObject({
      value: 0.4,
      status: 'missed',
      op: '>=',
      threshold: 0.5,
    });
    expect(statusOf('routerHopVsTransactionRelay')).toMatchObject({ value: 0.6, status: 'met' });
    expect(statusOf('slowHandlerVsIdeal')).toMatchObject({ value: 0.8125, status: 'met' });
    expect(statusOf('lightLoad.routerHop.p50')).toMatchObject({ value: 8, status: 'met', op: '<=', threshold: 15 });
    expect(statusOf('lightLoad.routerHop.p99')).toMatchObject({ value: 30, status: 'met', threshold: 50 });
    expect(statusOf('lightLoad.agentHop.p50')).toMatchObject({ value: 16, status: 'missed' });
    expect(statusOf('lightLoad.agentHop.p99')).toMatchObject({ value: 60, status: 'missed' });
  });

  it("reads the paired rounds' median ratios for the two exactly-once targets when they were measured", () => {
    const checks = checkTargets({ ...inputs, pairedRatios: { routerHop: 0.45, fullPath: 0.52 } });
    expect(checks.find((check) => check.id === 'fullPathVsTransactionRelay')).toMatchObject({
      value: 0.52,
      status: 'met',
    });
    expect(checks.find((check) => check.id === 'routerHopVsTransactionRelay')).toMatchObject({
      value: 0.45,
      status: 'missed',
    });
  });

  it('holds negotiated handoffs to 270 a second, ten times the 27 first measured', () => {
    expect(statusOf('negotiatedPerS')).toMatchObject({ value: 41.5, status: 'missed', op: '>=', threshold: 270 });
    const fast = checkTargets({ ...inputs, rows: { ...inputs.rows, 'negotiated.toCompleted': row(270) } });
    expect(fast.find((check) => check.id === 'negotiatedPerS')).toMatchObject({ value: 270, status: 'met' });
    const none = checkTargets({ ...inputs, rows: { ...inputs.rows, 'negotiated.toCompleted': row(Number.NaN) } });
    expect(none.find((check) => check.id === 'negotiatedPerS')).toMatchObject({ value: null, status: 'not measured' });
  });

  it("holds the task list's slowest query over 100,000 tasks to 100 ms", () => {
    expect(statusOf('taskSearchMs')).toMatchObject({ value: null, status: 'not measured' });
    const search = (taskSearchMs: number) =>
      checkTargets({ ...inputs, taskSearchMs }).find((check) => check.id === 'taskSearchMs');
    expect(search(47.2)).toMatchObject({ status: 'met', op: '<=', threshold: 100 });
    expect(search(100.1)).toMatchObject({ status: 'missed' });
  });

  it('holds services to 1% idle CPU and the broker to 5%', () => {
    expect(statusOf('idleCpu.router')).toMatchObject({ status: 'met', threshold: 1 });
    expect(statusOf('idleCpu.sales-agent')).toMatchObject({ status: 'missed', threshold: 1 });
    expect(statusOf('idleCpu.broker')).toMatchObject({ value: 3, status: 'met', threshold: 5 });
  });

  it('holds Baton services, not relays, to 150 MiB, and says which were not measured', () => {
    expect(statusOf('peakRss.router')).toMatchObject({ status: 'met' });
    expect(statusOf('peakRss.bench_agent')).toMatchObject({ status: 'missed' });
    expect(statusOf('peakRss.tracker')).toMatchObject({ value: null, status: 'not measured' });
    expect(statusOf('peakRss.relay_batch_1')).toBeUndefined();
  });

  it('has one not-measured idle check when the idle row did not run, and a broker check when its pid was unknown', () => {
    const skipped = checkTargets({ ...inputs, idleCpuPercent: undefined }).filter((c) => c.id.startsWith('idleCpu'));
    expect(skipped).toEqual([expect.objectContaining({ id: 'idleCpu', status: 'not measured' })]);
    const noBroker = checkTargets({ ...inputs, idleCpuPercent: { router: 0.2 } });
    expect(noBroker.find((c) => c.id === 'idleCpu.broker')).toMatchObject({ status: 'not measured' });
  });
});
