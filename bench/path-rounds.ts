/**
 * The figures of paired rounds, pure: two paths (signatures off and required, one broker and
 * three) take turns on the same machine, a pass of each per round, so both sides of each ratio run
 * in the same few seconds; the report reads the round whose throughput ratio is the median.
 */
import { latencyLine, type LatencySummary } from './stats.js';

/** What one pass of a path measured (path-pass.ts). */
export interface PathRun {
  /** Publish → the agent's COMPLETED outcome. */
  fullPath: LatencySummary;
  /** CPU (user + system) per handoff over the pass, per process tree measured, in µs. */
  cpuUsPerHandoff: Record<string, number>;
}

/**
 * CPU µs per handoff of each process, from its tick counts read before and after the pass; a
 * process missing from either reading (it ended) is left out.
 */
export function cpuUsPerHandoff(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  ticksPerSecond: number,
  handoffs: number,
): Record<string, number> {
  const perHandoff: Record<string, number> = {};
  for (const [name, end] of after) {
    const start = before.get(name);
    if (start !== undefined) perHandoff[name] = Math.round(((end - start) / ticksPerSecond / handoffs) * 1e6);
  }
  return perHandoff;
}

function ratio(a: number | undefined, b: number | undefined): number | null {
  return a === undefined || b === undefined || !Number.isFinite(a) || !(b > 0) ? null : a / b;
}

/** `other` over `base`: `throughput`, and `cpu.<process>` per handoff of each process `base` measured. */
export function pathRatios(base: PathRun, other: PathRun): Record<string, number | null> {
  const ratios: Record<string, number | null> = {
    throughput: ratio(other.fullPath.throughputPerS, base.fullPath.throughputPerS),
  };
  for (const name of Object.keys(base.cpuUsPerHandoff)) {
    ratios[`cpu.${name}`] = ratio(other.cpuUsPerHandoff[name], base.cpuUsPerHandoff[name]);
  }
  return ratios;
}

/** The round whose throughput ratio is the median (rounds are odd in number); a round without one sorts last. */
export function medianRound<R extends { ratios: Record<string, number | null> }>(rounds: readonly R[]): R {
  if (rounds.length === 0) throw new Error('no rounds to take a median of');
  const sorted = [...rounds].sort(
    (a, b) => (a.ratios.throughput ?? Number.POSITIVE_INFINITY) - (b.ratios.throughput ?? Number.POSITIVE_INFINITY),
  );
  return sorted[Math.floor((sorted.length - 1) / 2)] as R;
}

/** Where the report's figures start: the width of a row's name. */
export const LINE_WIDTH = 52;

/** A ratio as the report prints it: `0.80x`, or `n/a` where there is none. */
export const times = (value: number | null | undefined) =>
  value === null || value === undefined ? 'n/a' : `${value.toFixed(2)}x`;

/** How the two sides of a pair are named: in full on their throughput rows, in short elsewhere. */
export interface PairLabels {
  base: string;
  other: string;
  baseShort: string;
  otherShort: string;
}

/**
 * The paired rounds as the report prints them: both passes of the median round, the CPU per handoff
 * of each process on each side and its ratio, the median throughput ratio, and every round's.
 */
export function pairedPathLines(
  base: PathRun,
  other: PathRun,
  ratios: Record<string, number | null>,
  rounds: readonly { first: string; ratios: Record<string, number | null> }[],
  labels: PairLabels,
): string[] {
  const { baseShort, otherShort } = labels;
  return [
    latencyLine(`  ${labels.base}`, base.fullPath, LINE_WIDTH),
    latencyLine(`  ${labels.other}`, other.fullPath, LINE_WIDTH),
    ...Object.keys(base.cpuUsPerHandoff).map(
      (name) =>
        `  ${`CPU per handoff, ${name}`.padEnd(LINE_WIDTH - 2)} ${baseShort} ${String(base.cpuUsPerHandoff[name]).padStart(6)} µs` +
        `  ${otherShort} ${String(other.cpuUsPerHandoff[name] ?? 'n/a').padStart(6)} µs` +
        `  ${times(ratios[`cpu.${name}`])}`,
    ),
    `  ${`throughput, ${otherShort} / ${baseShort} (median round)`.padEnd(LINE_WIDTH - 2)} ${times(ratios.throughput)}`,
    `  ${`each round, ${otherShort} / ${baseShort}`.padEnd(LINE_WIDTH - 2)} ${rounds
      .map((round) => `${times(round.ratios.throughput)} (${round.first} first)`)
      .join(', ')}`,
  ];
}
