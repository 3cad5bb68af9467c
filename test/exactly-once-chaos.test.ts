import { expect, inject, it } from 'vitest';
import { describeChaosResult } from './helpers/chaos-report.js';
import { expectExactlyOnceInOrder } from './helpers/chaos-expectations.js';
import { runExactlyOnceChaos } from './helpers/chaos-run.js';

const HANDOFFS = 5_000;
const TASKS = 100;
const KILLS = 6;

/**
 * "Took effect" is the agent's transaction for a handoff: its COMPLETED outcome event on the events
 * topic and its `observed` ledger entry, committed records only, each counted by message_id. The
 * router's hop is checked the same way: its ROUTED events and the records it put in the agent's
 * inbox (by ce_id). Order is each task's records in its partition (events, ledger and inbox are
 * keyed by task_id) against publish order. Committed records are told from the transaction
 * markers, not by kafkajs's read_committed, which can let aborted records through (read-topic.ts).
 * See test/helpers/chaos-run.ts; `npm run chaos` runs the same at 20,000 handoffs with a broker
 * restart.
 */
it(`takes ${HANDOFFS} handoffs over ${TASKS} tasks exactly once, in order per task, while the router and the agent are SIGKILLed ${KILLS} times`, async () => {
  const seed = process.env.CHAOS_SEED === undefined ? undefined : Number(process.env.CHAOS_SEED);
  const result = await runExactlyOnceChaos({
    brokers: inject('kafkaBrokers'),
    schemaRegistryUrl: inject('schemaRegistryUrl'),
    handoffs: HANDOFFS,
    tasks: TASKS,
    kills: KILLS,
    seed,
    deadlineMs: 360_000,
    progress: (line) => console.log(`[chaos] ${line}`),
  });
  console.log(describeChaosResult(result).join('\n'));

  expectExactlyOnceInOrder(result, HANDOFFS);
  expect(result.kills.length).toBeGreaterThanOrEqual(5);
  expect(result.services.router.kills).toBeGreaterThan(0);
  expect(result.services.agent.kills).toBeGreaterThan(0);
}, 420_000);
