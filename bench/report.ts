/** The readable report printed before the final JSON line: every row, the ratios, and each target met or missed. */
import type { BenchResult } from './bench-result.js';
import type { PairedRatios } from './exactly-once-pairs.js';
import { RELAY_LABELS, RELAY_MODES } from './relay-modes.js';
import { clusterPathLines } from './cluster-figures.js';
import { signatureCostLines, signedPathLines } from './signature-figures.js';
import { latencyLine, type LatencySummary } from './stats.js';
import { taskSearchLines } from './task-search-bench.js';
import type { TargetCheck } from './targets.js';

const WIDTH = 46;

function rowLines(rows: Record<string, LatencySummary>, named: [string, string][]): string[] {
  return named.flatMap(([key, label]) => {
    const row = rows[key];
    return row === undefined ? [`  ${label.padEnd(WIDTH - 2)} not measured`] : [latencyLine(`  ${label}`, row, WIDTH)];
  });
}

function figure(value: number | null, unit: string): string {
  if (value === null) return 'not measured';
  if (unit === 'x') return `${value.toFixed(2)}x`;
  if (unit === '/s') return `${value.toFixed(1)}/s`;
  if (unit === '%') return `${value.toFixed(2)} %`;
  if (unit === 'MiB') return `${value.toFixed(1)} MiB`;
  return `${Math.round(value)} ${unit}`;
}

export function pairLines({ rounds, median }: PairedRatios): string[] {
  const perS = (value: number) => `${Math.round(value)}/s`;
  return [
    ...rounds.map(
      ({ first, baton, relay, ratios }, index) =>
        `  round ${index + 1} (${first} first): router hop ${perS(baton.routerHop)} / relay one hop ${perS(relay.oneHop)} = ` +
        `${ratios.routerHop.toFixed(2)}x; full path ${perS(baton.fullPath)} / relay two hops ${perS(relay.twoHops)} = ` +
        `${ratios.fullPath.toFixed(2)}x`,
    ),
    `  median: router hop ${median.routerHop.toFixed(2)}x, full path ${median.fullPath.toFixed(2)}x`,
  ];
}

/** One target: its status first, so a reader can run down the column. */
export function targetLine(check: TargetCheck): string {
  const status = check.status === 'missed' ? 'MISSED' : check.status;
  const bound = `  (target ${check.op} ${check.threshold}${check.unit === 'x' ? '' : ` ${check.unit}`})`;
  return `  ${status.padEnd(13)} ${check.label.padEnd(70)} ${figure(check.value, check.unit)}${bound}`;
}

/** Most of a machine's cores busy with other work before the bench started: its figures are noisy. */
export function isNoisy(loadAverage: number, cpus: number): boolean {
  return loadAverage > cpus / 2;
}

export function formatReport(result: BenchResult): string[] {
  const { rows, machine, config, negotiation, slowHandler, lightLoad, idle, signatures } = result;
  const noisy = isNoisy(machine.loadAverageBefore, machine.cpus)
    ? ' (other work shares this machine: figures are noisy)'
    : '';
  const header = `${'latency from publish to arrival'.padEnd(WIDTH)} ${'throughput'.padStart(10)}`;
  const counts = Object.values(result.targets).reduce(
    (sum, check) => ({ ...sum, [check.status]: (sum[check.status] ?? 0) + 1 }),
    {} as Record<string, number>,
  );
  return [
    '',
    `Baton bench, ${result.date}: one broker (${result.infrastructure}), ${config.partitions} partitions, ` +
      `${machine.cpus} CPUs, load average ${machine.loadAverageBefore.toFixed(1)} before and ` +
      `${machine.loadAverageAfter.toFixed(1)} after${noisy}`,
    '',
    `Throughput: the same ${config.messages} encoded handoffs (${config.tasks} tasks) published as fast as the broker takes them, ` +
      `each path warmed up first with ${config.throughputWarmup} others`,
    header,
    'one hop',
    ...rowLines(rows, [
      ['baton.routerHop', 'Baton router hop (→ agent inbox)'],
      ...RELAY_MODES.map((mode): [string, string] => [`relay.${mode}.oneHop`, RELAY_LABELS[mode]]),
    ]),
    'two hops',
    ...rowLines(rows, [
      ['baton.fullPath', 'Baton full path (→ agent COMPLETED outcome)'],
      ...RELAY_MODES.map((mode): [string, string] => [`relay.${mode}.twoHops`, RELAY_LABELS[mode]]),
    ]),
    `Exactly-once pairs: Baton and the transaction-per-batch relay take turns, ${result.exactlyOncePairs.rounds.length} rounds ` +
      `of the same ${config.messages} handoffs each; the two ratio targets read the median round`,
    ...pairLines(result.exactlyOncePairs),
    '',
    `Negotiated handoffs: ${negotiation.negotiations}, one task each (bench_sender asks bench_agent; the tracker runs the sender's side)`,
    ...rowLines(rows, [
      ['negotiated.toHandoffComplete', 'request → HandoffComplete'],
      ['negotiated.toCompleted', 'request → receiver COMPLETED'],
    ]),
    `  steps p50/p99 (ms): ${Object.entries(negotiation.stepsMs)
      .map(([step, s]) => `${step} ${s.p50Ms}/${s.p99Ms}`)
      .join(', ')}`,
    `  completed ${negotiation.completed}, failed ${negotiation.failed}, rejections/timeouts on the way ${negotiation.setbacks}`,
    '',
    `Slow handler: one slow_agent instance, handler ${slowHandler.handlerMs} ms, ${slowHandler.tasks} tasks × ` +
      `${slowHandler.handoffsPerTask} handoffs in order, concurrency bound ${slowHandler.concurrency}`,
    ...rowLines(rows, [['slowHandler', 'publish → COMPLETED']]),
    `  ideal min(${slowHandler.concurrency}, ${slowHandler.tasks}) / ${slowHandler.handlerMs / 1000} s = ` +
      `${slowHandler.idealPerS.toFixed(1)}/s; whole rounds of handlers allow at most ${slowHandler.roundBoundPerS.toFixed(1)}/s ` +
      `(${(slowHandler.roundBoundPerS / slowHandler.idealPerS).toFixed(2)} of it)`,
    '',
    `Light load: ${lightLoad.ratePerS} handoffs a second for ${lightLoad.seconds} s, one request each, by the clock ` +
      `(latest send ${lightLoad.pacing.maxLatenessMs} ms late, ${lightLoad.pacing.lateSends} more than 5 ms late)`,
    ...rowLines(rows, [
      ['lightLoad.routerHop', 'router hop (publish → agent inbox)'],
      ['lightLoad.agentHop', 'agent hop (inbox → COMPLETED outcome)'],
      ['lightLoad.fullPath', 'full path (publish → COMPLETED outcome)'],
    ]),
    '',
    `Signatures (issue 13) and the personal data stage, per message in the bench's process: Ed25519 over the ` +
      `RFC 8785 canonical JSON, AES-256-GCM of the personal fields; ` +
      `median of ${signatures.costs.rounds} rounds of ${signatures.costs.roundMs} ms after ` +
      `${signatures.costs.warmupMs} ms of warm-up, each against the codec operation it goes with`,
    ...signatureCostLines(signatures.costs.rows),
    `Signatures on the full path: ${signatures.fullPath.handoffs} handoffs (${config.tasks} tasks) per pass, each pass ` +
      `through a fresh router and bench agent warmed up with ${signatures.fullPath.warmup}; off, then required with every process sealing`,
    header,
    ...signedPathLines(signatures.fullPath),
    '',
    ...taskSearchLines(result.taskSearch),
    '',
    ...(result.cluster === undefined ? [] : [...clusterPathLines(result.cluster, config.tasks), '']),
    'skipped' in idle
      ? `Idle CPU: not measured (${idle.skipped})`
      : `Idle CPU over ${idle.seconds} s, percent of one core (the npm start fleet on topics of its own): ${Object.entries(
          idle.cpuPercent,
        )
          .sort(([, a], [, b]) => b - a)
          .map(([name, percent]) => `${name} ${percent.toFixed(2)}`)
          .join(', ')}`,
    `Peak RSS (MiB): ${Object.entries(result.peakRssMiB)
      .map(([name, mib]) => `${name} ${mib}`)
      .join(', ')}`,
    `Ratios (throughput): ${Object.entries(result.ratios)
      .map(([name, ratio]) => `${name} ${ratio === null ? 'n/a' : ratio.toFixed(2)}`)
      .join(', ')}`,
    ...(result.undecodableEvents > 0 ? [`${result.undecodableEvents} events records did not decode`] : []),
    '',
    `Targets (issue 10): ${Object.entries(counts)
      .map(([status, count]) => `${count} ${status}`)
      .join(', ')}`,
    ...result.targets.map(targetLine),
    '',
  ];
}
