/**
 * The targets (issue 10, item 5) as checks over the bench's figures: pure, so the report,
 * the JSON line and the tests agree on what was met.
 */
import type { LatencySummary } from './stats.js';

export type TargetStatus = 'met' | 'missed' | 'not measured';

export interface TargetCheck {
  id: string;
  label: string;
  /** null when the figure was not measured (or came out NaN). */
  value: number | null;
  unit: string;
  op: '>=' | '<=';
  threshold: number;
  status: TargetStatus;
}

export const TARGETS = {
  /** Baton's full path against the exactly-once kafkajs relay over two hops, throughput. */
  fullPathVsTransactionRelay: 0.5,
  /** The router hop against the exactly-once kafkajs relay over one hop, throughput. */
  routerHopVsTransactionRelay: 0.5,
  /** Negotiated handoffs, request to the receiver's COMPLETED: ten times the 27/s first measured. */
  negotiatedPerS: 270,
  slowHandlerVsIdeal: 0.8,
  /** The full path with signatures required against the same path unsigned, throughput (median round). */
  signedVsUnsigned: 0.8,
  lightLoadHopP50Ms: 15,
  lightLoadHopP99Ms: 50,
  idleServiceCpuPercent: 1,
  idleBrokerCpuPercent: 5,
  servicePeakRssMiB: 150,
  /** The slowest query's median over 100,000 tasks (issue 41). */
  taskSearchMs: 100,
} as const;

export interface TargetInputs {
  rows: Readonly<Record<string, LatencySummary>>;
  slowHandlerIdealPerS: number;
  /**
   * The median round's ratios of Baton and the transaction relay taking turns (exactly-once-pairs.ts):
   * what the two ratio targets read when measured, else the single throughput rows' ratios.
   */
  pairedRatios?: { routerHop: number; fullPath: number };
  /** The slowest task-list query's median, ms (task-search-bench.ts); undefined when not measured. */
  taskSearchMs?: number;
  /** Signed full path / unsigned, the median round's (signature-full-path.ts); undefined when not measured. */
  signedPathRatio?: number;
  /** Idle CPU, percent of one core, per service and `broker`; undefined when not measured. */
  idleCpuPercent?: Readonly<Record<string, number>>;
  peakRssMiB: Readonly<Record<string, number>>;
  /** Which processes of peakRssMiB are Baton's (the relays are not). */
  batonServices: readonly string[];
}

function finite(value: number | undefined): number | null {
  return value === undefined || !Number.isFinite(value) ? null : value;
}

function check(
  id: string,
  label: string,
  value: number | undefined,
  unit: string,
  op: '>=' | '<=',
  threshold: number,
): TargetCheck {
  const measured = finite(value);
  const status: TargetStatus =
    measured === null
      ? 'not measured'
      : (op === '>=' ? measured >= threshold : measured <= threshold)
        ? 'met'
        : 'missed';
  return { id, label, value: measured, unit, op, threshold, status };
}

function throughputRatio(rows: TargetInputs['rows'], numerator: string, denominator: string): number | undefined {
  const a = rows[numerator]?.throughputPerS;
  const b = rows[denominator]?.throughputPerS;
  return a === undefined || b === undefined || !(b > 0) ? undefined : a / b;
}

/** Throughput of each Baton row over each relay's, and the slow handler's over its ideal. */
export function benchRatios(inputs: TargetInputs): Record<string, number | null> {
  const { rows } = inputs;
  const ratios: Record<string, number | null> = {};
  for (const mode of ['transaction', 'batch', 'per-record']) {
    ratios[`fullPath/relay.${mode}.twoHops`] = finite(throughputRatio(rows, 'baton.fullPath', `relay.${mode}.twoHops`));
    ratios[`routerHop/relay.${mode}.oneHop`] = finite(throughputRatio(rows, 'baton.routerHop', `relay.${mode}.oneHop`));
  }
  const slow = rows.slowHandler?.throughputPerS;
  ratios['slowHandler/ideal'] = finite(
    slow === undefined || !(inputs.slowHandlerIdealPerS > 0) ? undefined : slow / inputs.slowHandlerIdealPerS,
  );
  return ratios;
}

/** Every target of the issue, in the report's order. */
export function checkTargets(inputs: TargetInputs): TargetCheck[] {
  const { rows } = inputs;
  const ratios = benchRatios(inputs);
  const paired = inputs.pairedRatios;
  const checks: TargetCheck[] = [
    check(
      'fullPathVsTransactionRelay',
      'Baton full path / transaction-per-batch relay, two hops (throughput)',
      paired?.fullPath ?? ratios['fullPath/relay.transaction.twoHops'] ?? undefined,
      'x',
      '>=',
      TARGETS.fullPathVsTransactionRelay,
    ),
    check(
      'routerHopVsTransactionRelay',
      'Baton router hop / transaction-per-batch relay, one hop (throughput)',
      paired?.routerHop ?? ratios['routerHop/relay.transaction.oneHop'] ?? undefined,
      'x',
      '>=',
      TARGETS.routerHopVsTransactionRelay,
    ),
    check(
      'negotiatedPerS',
      'negotiated handoffs per second (request → COMPLETED)',
      rows['negotiated.toCompleted']?.throughputPerS,
      '/s',
      '>=',
      TARGETS.negotiatedPerS,
    ),
    check(
      'slowHandlerVsIdeal',
      'slow handler / ideal min(concurrency, tasks) / 2 s',
      ratios['slowHandler/ideal'] ?? undefined,
      'x',
      '>=',
      TARGETS.slowHandlerVsIdeal,
    ),
    check(
      'signedVsUnsigned',
      'full path, signatures required / off (throughput, median round)',
      inputs.signedPathRatio,
      'x',
      '>=',
      TARGETS.signedVsUnsigned,
    ),
    check(
      'taskSearchMs',
      'task search over 100,000 tasks, slowest query (median of its runs)',
      inputs.taskSearchMs,
      'ms',
      '<=',
      TARGETS.taskSearchMs,
    ),
  ];
  for (const [hop, name] of [
    ['routerHop', 'router hop'],
    ['agentHop', 'agent hop'],
  ] as const) {
    const row = rows[`lightLoad.${hop}`];
    checks.push(
      check(`lightLoad.${hop}.p50`, `light load, ${name} p50`, row?.p50Ms, 'ms', '<=', TARGETS.lightLoadHopP50Ms),
      check(`lightLoad.${hop}.p99`, `light load, ${name} p99`, row?.p99Ms, 'ms', '<=', TARGETS.lightLoadHopP99Ms),
    );
  }
  if (inputs.idleCpuPercent === undefined) {
    checks.push(check('idleCpu', 'idle CPU per service', undefined, '%', '<=', TARGETS.idleServiceCpuPercent));
  } else {
    const entries = Object.entries(inputs.idleCpuPercent);
    for (const [name, percent] of entries.filter(([name]) => name !== 'broker')) {
      checks.push(check(`idleCpu.${name}`, `idle CPU, ${name}`, percent, '%', '<=', TARGETS.idleServiceCpuPercent));
    }
    checks.push(
      check(
        'idleCpu.broker',
        'idle CPU, broker',
        inputs.idleCpuPercent.broker,
        '%',
        '<=',
        TARGETS.idleBrokerCpuPercent,
      ),
    );
  }
  for (const name of inputs.batonServices) {
    checks.push(
      check(`peakRss.${name}`, `peak RSS, ${name}`, inputs.peakRssMiB[name], 'MiB', '<=', TARGETS.servicePeakRssMiB),
    );
  }
  return checks;
}
