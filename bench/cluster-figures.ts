/**
 * What `npm run bench -- --brokers 3` measured of the full path on a cluster beside one broker
 * (cluster-path.ts): the shapes of its JSON and the readable lines, pure, so the report, the JSON
 * line and the tests agree.
 */
import type { LightLoadResult } from './light-load-bench.js';
import { LINE_WIDTH, pairedPathLines, type PathRun } from './path-rounds.js';
import { latencyLine } from './stats.js';

/** Rounds of the pair: odd, so the median is one round's. */
export const CLUSTER_ROUNDS = 5;

export type ClusterSide = 'one' | 'cluster';

export interface ClusterRound {
  first: ClusterSide;
  one: PathRun;
  cluster: PathRun;
  /** cluster / one: `throughput`, and `cpu.<process>` per handoff (`cpu.brokers`: the three JVMs against the one). */
  ratios: Record<string, number | null>;
}

export interface ClusterPathResult {
  brokers: number;
  replicationFactor: number;
  minInsyncReplicas: number;
  /** Handoffs per pass, and through each pair before the rounds. */
  handoffs: number;
  rounds: ClusterRound[];
  /** The median round's (by its throughput ratio). */
  one: PathRun;
  cluster: PathRun;
  ratios: Record<string, number | null>;
  /** The light-load row on the three brokers. */
  lightLoad: LightLoadResult;
}

/** The cluster's rows of the report. */
export function clusterPathLines(result: ClusterPathResult, tasks: number): string[] {
  const { lightLoad } = result;
  return [
    `A cluster of ${result.brokers} brokers beside one: ${result.handoffs} handoffs (${tasks} tasks) per pass through a router and a bench ` +
      `agent on each, taking turns, ${result.rounds.length} rounds; on the cluster every topic ` +
      `has ${result.replicationFactor} replicas, ${result.minInsyncReplicas} in sync, and producers wait for them all; ` +
      'brokers is the CPU of every broker JVM of the side',
    ...pairedPathLines(result.one, result.cluster, result.ratios, result.rounds, {
      base: 'one broker',
      other: `${result.brokers} brokers`,
      baseShort: 'one',
      otherShort: 'cluster',
    }),
    `Light load on ${result.brokers} brokers: ${lightLoad.ratePerS} handoffs a second for ${lightLoad.seconds} s, one request each`,
    latencyLine('  router hop (publish → agent inbox)', lightLoad.routerHop, LINE_WIDTH),
    latencyLine('  agent hop (inbox → COMPLETED outcome)', lightLoad.agentHop, LINE_WIDTH),
    latencyLine('  full path (publish → COMPLETED outcome)', lightLoad.fullPath, LINE_WIDTH),
  ];
}
