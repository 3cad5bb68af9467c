/**
 * `npm run chaos [N] [KILLS]`: the exactly-once chaos run of test/exactly-once-chaos.test.ts at a
 * larger scale, on a broker of its own that it restarts mid-run. N handoffs (default 20,000) over
 * 100 tasks flow through the router and a probe agent, separate processes, which are SIGKILLed
 * KILLS times in all (default 20, in pairs of one each, at moments chosen by progress) and started
 * again at once; once half the handoffs have completed, the broker is stopped and started again on the same
 * port and data directory while the services keep running and retrying. Then every topic is read
 * to its end and each handoff's effects audited. Prints progress on stderr and a summary on
 * stdout; exits 1 unless nothing was lost, duplicated or out of order. CHAOS_SEED replays a run's
 * kill steps. SCHEMA_REGISTRY_URL is used when set (the registry is never restarted); KAFKA_BROKERS
 * is not: a broker named by the environment cannot be restarted from here.
 */
import type { ChildProcess } from 'node:child_process';
import { startLocalKafka, startLocalRegistry, type StartedRegistry } from '@baton/local-infra';
import { describeChaosResult } from '../test/helpers/chaos-report.js';
import { runExactlyOnceChaos } from '../test/helpers/chaos-run.js';

const HANDOFFS = Number(process.argv[2] ?? process.env.CHAOS_HANDOFFS ?? 20_000);
const KILLS = Number(process.argv[3] ?? process.env.CHAOS_KILLS ?? 20);
const TASKS = Number(process.env.CHAOS_TASKS ?? 100);
const SEED = process.env.CHAOS_SEED === undefined ? undefined : Number(process.env.CHAOS_SEED);

const progress = (line: string) => process.stderr.write(`[chaos] ${line}\n`);

// The services are this run's children: should it be stopped, they go with it rather than
// retrying a broker that went too. (The JVMs already die with their parent.)
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

progress(`${HANDOFFS} handoffs over ${TASKS} tasks, ${KILLS} kills, one broker restart`);
const broker = await startLocalKafka({ onProgress: progress });
let registry: StartedRegistry | undefined;
let exitCode = 1;
try {
  const schemaRegistryUrl = process.env.SCHEMA_REGISTRY_URL ?? (registry = await startLocalRegistry()).url;
  const result = await runExactlyOnceChaos({
    brokers: broker.brokers,
    schemaRegistryUrl,
    handoffs: HANDOFFS,
    tasks: TASKS,
    kills: KILLS,
    seed: SEED,
    disruptions: [{ name: 'broker restart', atProgress: Math.floor(HANDOFFS / 2), run: () => broker.restart() }],
    deadlineMs: 45 * 60_000,
    progress,
    onSpawn: (child) => {
      children.add(child);
      child.once('exit', () => children.delete(child));
    },
  });
  process.stdout.write(`\n${describeChaosResult(result).join('\n')}\n`);
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
      deadLetters: result.deadLetters,
      problems: result.problems,
    })}\n`,
  );
  exitCode = result.ok ? 0 : 1;
} finally {
  await registry?.stop();
  await broker.stop();
}
process.exit(exitCode);
