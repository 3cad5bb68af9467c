import { expect, it } from 'vitest';
import { clusterPathLines, type ClusterPathResult } from './cluster-figures.js';
import { pathRatios, type PathRun } from './path-rounds.js';
import { latencySummary } from './path-run.test-helper.js';

const one: PathRun = { fullPath: latencySummary(8000), cpuUsPerHandoff: { router: 60, bench_agent: 50, brokers: 70 } };
const cluster: PathRun = {
  fullPath: latencySummary(4000),
  cpuUsPerHandoff: { router: 66, bench_agent: 55, brokers: 210 },
};

it('gives both sides of the median round with the brokers CPU, every round, then the light load on the cluster', () => {
  const ratios = pathRatios(one, cluster);
  const result: ClusterPathResult = {
    brokers: 3,
    replicationFactor: 3,
    minInsyncReplicas: 2,
    handoffs: 10_000,
    rounds: [
      { first: 'one', one, cluster, ratios },
      { first: 'cluster', one, cluster, ratios },
      { first: 'one', one, cluster, ratios },
    ],
    one,
    cluster,
    ratios,
    lightLoad: {
      ratePerS: 20,
      seconds: 30,
      pacing: { maxLatenessMs: 3, lateSends: 0 },
      routerHop: latencySummary(20, 6),
      agentHop: latencySummary(20, 7),
      fullPath: latencySummary(20, 13),
    },
  };
  const lines = clusterPathLines(result, 200);
  expect(lines[0]).toBe(
    'A cluster of 3 brokers beside one: 10000 handoffs (200 tasks) per pass through a router and a bench agent on ' +
      'each, taking turns, 3 rounds; on the cluster every topic has 3 replicas, 2 in sync, and producers wait for ' +
      'them all; brokers is the CPU of every broker JVM of the side',
  );
  expect(lines[1]).toMatch(/^ {2}one broker +8000\/s/);
  expect(lines[2]).toMatch(/^ {2}3 brokers +4000\/s/);
  expect(lines[5]).toMatch(/^ {2}CPU per handoff, brokers +one +70 µs {2}cluster +210 µs {2}3\.00x$/);
  expect(lines[6]).toMatch(/^ {2}throughput, cluster \/ one \(median round\) +0\.50x$/);
  expect(lines[7]).toMatch(/0\.50x \(one first\), 0\.50x \(cluster first\), 0\.50x \(one first\)$/);
  expect(lines[8]).toBe('Light load on 3 brokers: 20 handoffs a second for 30 s, one request each');
  expect(lines[11]).toMatch(/^ {2}full path \(publish → COMPLETED outcome\) +20\/s {2}p50 +13 ms/);
  expect(lines).toHaveLength(12);
});
