/**
 * `npm run chaos [N] [KILLS]`: the exactly-once chaos run of test/exactly-once-chaos.test.ts at a
 * larger scale, on Kafka of its own. N handoffs (default 20,000) over 100 tasks flow through the
 * router and a probe agent, separate processes, which are SIGKILLed KILLS times in all (default 20,
 * in pairs of one each, at moments chosen by progress) and started again at once. Then every topic
 * is read to its end and each handoff's effects audited. Prints progress on stderr and a summary
 * on stdout; exits 1 unless nothing was lost, duplicated or out of order. CHAOS_SEED replays a
 * run's kill steps. SCHEMA_REGISTRY_URL is used when set (the registry is never restarted);
 * KAFKA_BROKERS is not: a broker named by the environment cannot be taken away from here.
 *
 * On one broker (the default), the broker is stopped and started again once half the handoffs
 * have completed, while the services keep running and retrying.
 *
 * `--brokers 3` (or CHAOS_BROKERS=3) runs a cluster of three instead, every topic replicated three
 * times with two in sync, two instances of the router and of the agent, and the broker faults of
 * test/helpers/broker-faults.ts besides the kills: the leader of most partitions, the router's
 * transaction coordinator and the agent's group coordinator each SIGKILLed, a broker frozen past
 * the session timeouts, a rolling restart, and (as root on Linux, where each broker gets a network
 * namespace of its own) a broker cut off the network for 30 s; and the agent scaled out to a third
 * instance and in again, one instance stopped with SIGTERM and one SIGKILLed for good
 * (test/helpers/chaos-faults.ts; CHAOS_FAULTS=leader,scale-out,... makes only those). The handoffs
 * are published through two gateway instances (POST /v1/handoffs), one of them SIGKILLed once;
 * CHAOS_GATEWAYS=0 publishes them to Kafka directly. Publishing is paced (CHAOS_RATE handoffs a
 * second, default N / 360) so the faults and the kills meet a steady flow. The summary gives the longest pause in
 * completions after each fault and the time to drain after the last.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  networkNamespacesUsable,
  replicationOf,
  startLocalKafka,
  startLocalRegistry,
  type StartedRegistry,
} from '@baton/local-infra';
import { chaosFaults, parseChaosFaults } from '../test/helpers/chaos-faults.js';
import { describeChaosResult } from '../test/helpers/chaos-report.js';
import { runExactlyOnceChaos, type ChaosDisruption } from '../test/helpers/chaos-run.js';
import { stateDir } from './lib/local-connection.js';
import { brokerCount, withoutBrokerOption } from './lib/start-options.js';

const BROKERS = brokerCount(process.argv.slice(2), process.env, 'CHAOS_BROKERS');
const [handoffsArgument, killsArgument] = withoutBrokerOption(process.argv.slice(2));
const HANDOFFS = Number(handoffsArgument ?? process.env.CHAOS_HANDOFFS ?? 20_000);
const KILLS = Number(killsArgument ?? process.env.CHAOS_KILLS ?? 20);
const TASKS = Number(process.env.CHAOS_TASKS ?? 100);
const SEED = process.env.CHAOS_SEED === undefined ? undefined : Number(process.env.CHAOS_SEED);
const CLUSTER = BROKERS > 1;
/**
 * About six minutes of handoffs on a cluster: its faults, one after another, and the kills,
 * each restart a few seconds, all meet a flow (at three minutes the router had routed all 20,000
 * before its last kill).
 */
const RATE = CLUSTER ? Number(process.env.CHAOS_RATE ?? Math.ceil(HANDOFFS / 360)) : undefined;
const INSTANCES = CLUSTER ? 2 : 1;
/**
 * Gateway instances the handoffs are published through (CHAOS_GATEWAYS): two on a cluster, as a
 * deployment runs them; 0 (one broker's default) publishes them to Kafka directly.
 */
const GATEWAYS = Number(process.env.CHAOS_GATEWAYS ?? (CLUSTER ? 2 : 0));
/** Where each service process's output is kept, to read after the run. */
const CHAOS_LOG_DIR = join(stateDir(), 'chaos', new Date().toISOString().replace(/[:.]/g, '-'));

const progress = (line: string) => process.stderr.write(`[chaos] ${line}\n`);

// The services are this run's children: should it be stopped, they go with it rather than
// retrying a broker that went too. (The JVMs already die with their parent.)
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

// On a cluster, each broker gets a network of its own where this may make them (Linux, root), so
// that one can be cut off (the network-cut fault).
const isolated = CLUSTER && networkNamespacesUsable();
if (CLUSTER && !isolated) progress('network-cut left out: network namespaces need Linux, root and `ip netns`');
const kafka = await startLocalKafka({ nodes: BROKERS, isolated, onProgress: progress });
const disruptions: ChaosDisruption[] = CLUSTER
  ? chaosFaults(
      kafka,
      HANDOFFS,
      parseChaosFaults(process.env.CHAOS_FAULTS).filter((fault) => GATEWAYS > 0 || fault !== 'gateway-kill'),
    )
  : [{ name: 'broker restart', atProgress: Math.floor(HANDOFFS / 2), run: () => kafka.restart() }];
progress(
  `${HANDOFFS} handoffs over ${TASKS} tasks on ${BROKERS} broker${CLUSTER ? 's' : ''}, ` +
    `${INSTANCES} instance${INSTANCES > 1 ? 's' : ''} of the router and of the agent, ${KILLS} kills` +
    (RATE === undefined ? '' : `, ${RATE} handoffs/s`),
);
progress(
  `faults besides the kills, by completed handoffs: ${disruptions.map((d) => `${d.name} at ${d.atProgress}`).join('; ')}`,
);
let registry: StartedRegistry | undefined;
let exitCode = 1;
try {
  const schemaRegistryUrl = process.env.SCHEMA_REGISTRY_URL ?? (registry = await startLocalRegistry()).url;
  const result = await runExactlyOnceChaos({
    brokers: kafka.brokers,
    schemaRegistryUrl,
    handoffs: HANDOFFS,
    tasks: TASKS,
    kills: KILLS,
    instances: INSTANCES,
    gateways: GATEWAYS,
    replicationFactor: replicationOf(BROKERS).replicationFactor,
    ...(RATE !== undefined && { ratePerSecond: RATE }),
    seed: SEED,
    disruptions,
    logDir: CHAOS_LOG_DIR,
    deadlineMs: 45 * 60_000,
    progress,
    onSpawn: (child) => {
      children.add(child);
      child.once('exit', () => children.delete(child));
    },
  });
  process.stdout.write(`\n${describeChaosResult(result).join('\n')}\nservice logs: ${CHAOS_LOG_DIR}\n`);
  process.stdout.write(
    `${JSON.stringify({
      event: 'chaos.result',
      ok: result.ok,
      seed: result.seed,
      durationMs: result.durationMs,
      published: result.published,
      tookEffect: result.audits.completed.tookEffect,
      lost: result.audits.completed.lost,
      duplicated: result.audits.completed.duplicated,
      outOfOrder: result.audits.completed.outOfOrder,
      audits: Object.fromEntries(
        Object.entries(result.audits).map(([name, audit]) => [
          name,
          {
            lost: audit.lost,
            duplicated: audit.duplicated,
            outOfOrder: audit.outOfOrder,
            unexpected: audit.unexpected,
          },
        ]),
      ),
      kills: result.kills.length,
      services: result.services,
      disruptions: result.disruptions,
      faults: result.faults,
      drainMs: result.drainMs,
      deadLetters: result.deadLetters,
      problems: result.problems,
    })}\n`,
  );
  exitCode = result.ok ? 0 : 1;
} finally {
  await registry?.stop();
  await kafka.stop();
}
process.exit(exitCode);
