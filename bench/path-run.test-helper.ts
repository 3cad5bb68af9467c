import type { PathRun } from './path-rounds.js';
import type { LatencySummary } from './stats.js';

/** A pass's latency summary of 10,000 handoffs at `throughputPerS`. */
export const latencySummary = (throughputPerS: number, p50Ms = 120): LatencySummary => ({
  count: 10_000,
  p50Ms,
  p95Ms: 300,
  p99Ms: 410,
  throughputPerS,
});

/** Two passes of a pair: the base, and one at 0.8x its throughput with more CPU per handoff. */
export const basePass: PathRun = { fullPath: latencySummary(1000), cpuUsPerHandoff: { router: 250, bench_agent: 600 } };
export const slowerPass: PathRun = {
  fullPath: latencySummary(800),
  cpuUsPerHandoff: { router: 350, bench_agent: 750 },
};
