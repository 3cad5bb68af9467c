export interface LatencySummary {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  throughputPerS: number;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

/** Latency percentiles, and throughput over the span from the first send to the last arrival. */
export function summarise(latenciesMs: number[], firstSentAt: number, lastArrivedAt: number): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    p99Ms: percentile(sorted, 0.99),
    throughputPerS: (sorted.length * 1000) / Math.max(1, lastArrivedAt - firstSentAt),
  };
}

/**
 * One hop or a whole path: for each id seen at both ends, the time from `from` to `to`; throughput
 * over the span from the earliest `from` to the latest `to` of those ids.
 */
export function pairedSummary(from: ReadonlyMap<string, number>, to: ReadonlyMap<string, number>): LatencySummary {
  const latencies: number[] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const [id, startedAt] of from) {
    const endedAt = to.get(id);
    if (endedAt === undefined) continue;
    latencies.push(endedAt - startedAt);
    first = Math.min(first, startedAt);
    last = Math.max(last, endedAt);
  }
  return latencies.length === 0 ? summarise([], 0, 1) : summarise(latencies, first, last);
}

/** One row of the report: throughput and percentiles, in aligned columns. */
export function latencyLine(name: string, s: LatencySummary, width = 24): string {
  return `${name.padEnd(width)} ${String(Math.round(s.throughputPerS)).padStart(8)}/s  p50 ${String(s.p50Ms).padStart(6)} ms  p95 ${String(s.p95Ms).padStart(6)} ms  p99 ${String(s.p99Ms).padStart(6)} ms`;
}
