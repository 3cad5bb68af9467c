import type { ClusterPathResult } from './cluster-figures.js';
import type { PairedRatios } from './exactly-once-pairs.js';
import type { NegotiationBenchResult } from './negotiation-bench.js';
import type { SlowHandlerResult } from './slow-handler-bench.js';
import type { PacingReport } from './pacing.js';
import type { SignatureCosts, SignedPathResult } from './signature-figures.js';
import type { LatencySummary } from './stats.js';
import type { TaskSearchResult } from './task-search-bench.js';
import type { TargetCheck } from './targets.js';

/** What measureIdleCpu (idle-cpu.ts) measured, or why it did not run. */
export type IdleRow =
  { seconds: number; cpuPercent: Record<string, number>; cpuSeconds: Record<string, number> } | { skipped: string };

/**
 * Everything one `npm run bench` measured: the final JSON line on stdout (`event: bench.result`),
 * and what the readable report is printed from.
 */
export interface BenchResult {
  event: 'bench.result';
  /** When the bench started, ISO 8601. */
  date: string;
  machine: {
    cpus: number;
    /** The 1-minute load average before the bench started anything, and at its end. */
    loadAverageBefore: number;
    loadAverageAfter: number;
  };
  /** Where Kafka and the registry came from (environment, containers, local-jvm). */
  infrastructure: string;
  /** throughputWarmup: handoffs through each throughput path before its measured pass (THROUGHPUT_WARMUP). */
  config: { messages: number; throughputWarmup: number; negotiations: number; partitions: number; tasks: number };
  /**
   * Throughput and latency per row: `baton.routerHop`, `baton.fullPath`,
   * `relay.<mode>.oneHop|twoHops`, `negotiated.toHandoffComplete|toCompleted`, `slowHandler`,
   * `lightLoad.routerHop|agentHop|fullPath`.
   */
  rows: Record<string, LatencySummary>;
  /** Baton and the transaction relay taking turns, round by round: what the two ratio targets read. */
  exactlyOncePairs: PairedRatios;
  negotiation: Omit<NegotiationBenchResult, 'rows'>;
  slowHandler: Omit<SlowHandlerResult, 'summary'>;
  lightLoad: { ratePerS: number; seconds: number; pacing: PacingReport };
  idle: IdleRow;
  /** Issue 13: per message in the bench's process, and on the full path off against required. */
  signatures: { costs: SignatureCosts; fullPath: SignedPathResult };
  /** The task list's search over 100,000 tasks, in the bench's process. */
  taskSearch: TaskSearchResult;
  /** With `--brokers B`: the full path on a cluster of B beside one broker, and light load on it. */
  cluster?: ClusterPathResult;
  peakRssMiB: Record<string, number>;
  ratios: Record<string, number | null>;
  targets: TargetCheck[];
  /** Events records the observer could not decode: none is expected. */
  undecodableEvents: number;
}
