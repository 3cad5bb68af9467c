import type { ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { parseLedgerEntry } from '@baton/agent-sdk';
import { topicNames, type OutputRecord, type TopicNames } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import { handoffRecord } from '@baton/runtime';
import { SchemaRegistryClient, createHandoffCodec, createOutcomeCodec, type HandoffCodec } from '@baton/wire';
import { auditChaosEffects, type ChaosEffects, type ChaosHandoff } from './chaos-effects.js';
import { startKillableService, type KillableService } from './killable-service.js';
import { cappedStep, pairOrder, planKillSteps, seededRandom, type Victim } from './kill-plan.js';
import { publishInOrder, type OrderedPublisher } from './ordered-publisher.js';
import { collectRecords, type CollectedRecord, type RecordCollector } from './record-collector.js';
import { startServiceProcess } from './service-process.js';
import { uniqueName } from './unique-name.js';
import { waitFor } from './wait-for.js';

const AGENT_ID = 'probe_agent';
const ROUTER_ID = 'router';
const ROUTING_TABLE = 'test/fixtures/chaos-routing-table.yaml';

/** Something done to the system besides the kills, once the agent has completed `atProgress` handoffs. */
export interface ChaosDisruption {
  name: string;
  atProgress: number;
  run(): Promise<void>;
}

export interface ExactlyOnceChaosOptions {
  brokers: string[];
  schemaRegistryUrl: string;
  handoffs: number;
  tasks: number;
  kills: number;
  /** @default 6 */
  partitions?: number;
  /** Seeds the kill plan: the same seed, the same steps. @default a random one, reported */
  seed?: number;
  disruptions?: ChaosDisruption[];
  /**
   * Handoffs published and not yet completed, at most: the publisher keeps going all run long,
   * and neither service can finish far ahead of the other while kills are still to come.
   * @default handoffs / 5
   */
  window?: number;
  /** Gives up when no handoff was routed or completed for this long. @default 120_000 */
  stallTimeoutMs?: number;
  /** Gives up after this long in all. @default 600_000 */
  deadlineMs?: number;
  /** @default every 5 s */
  progressIntervalMs?: number;
  progress(line: string): void;
  /** Told of every service process started, e.g. to kill it should the caller itself be stopped. */
  onSpawn?(child: ChildProcess): void;
}

export interface ChaosKill {
  victim: Victim;
  atMs: number;
  /** Handoffs the victim had done when it was killed. */
  victimProgress: number;
}

export interface ExactlyOnceChaosResult extends ChaosEffects {
  seed: number;
  published: number;
  kills: ChaosKill[];
  /** Per service: kills, unexpected exits (crashes), failed (re)starts, duplicates its logs say it skipped. */
  services: Record<Victim, { kills: number; unexpectedExits: number; failedStarts: number; duplicatesSkipped: number }>;
  disruptions: { name: string; atMs: number; tookMs: number }[];
  /** Batches the publisher sent again after a failed send. */
  resentBatches: number;
  /** Exit codes after the final SIGTERM (0: drained and committed). */
  exitCodes: Record<Victim, number | null>;
  /** What kept the run from its plan: a kill not made, a stall, a deadline. Empty when it went to plan. */
  problems: string[];
  durationMs: number;
  /** Everything took effect exactly once and in order, as planned, and nothing else happened. */
  ok: boolean;
}

/**
 * Sends handoffs through a router and a probe agent, each its own process, while SIGKILLing and
 * restarting them at moments chosen by progress (see kill-plan.ts), then stops both (SIGTERM),
 * reads every topic to its end and audits each handoff's effects: exactly once, in publish order
 * per task. Shared by test/exactly-once-chaos.test.ts and `npm run chaos`.
 */
export async function runExactlyOnceChaos(options: ExactlyOnceChaosOptions): Promise<ExactlyOnceChaosResult> {
  const startedAt = Date.now();
  const since = (at: number) => `${((Date.now() - at) / 1000).toFixed(1)}s`;
  const say = (line: string) => options.progress(`${since(startedAt)} ${line}`);
  const { brokers, handoffs } = options;
  const seed = options.seed ?? randomInt(2 ** 31);
  const steps = planKillSteps(options.kills, handoffs, seededRandom(seed));
  const deadline = startedAt + (options.deadlineMs ?? 600_000);
  const stallTimeoutMs = options.stallTimeoutMs ?? 120_000;
  const window = options.window ?? Math.ceil(handoffs / 5);
  const topics = topicNames(uniqueName('chaos'));
  say(`seed ${seed} (CHAOS_SEED), topics ${topics.prefix}.*, ${steps.length} kills after ${steps.join(', ')} handoffs`);

  const registry = new SchemaRegistryClient({ url: options.schemaRegistryUrl });
  const [codec, outcomeCodec] = await Promise.all([createHandoffCodec(registry), createOutcomeCodec(registry)]);
  const { published, records } = chaosHandoffs(codec, topics, handoffs, options.tasks);
  const services = await startServices(options, topics, say);

  const problems: string[] = [];
  const kills: ChaosKill[] = [];
  const disruptions: ExactlyOnceChaosResult['disruptions'] = [];
  const restarts: Promise<unknown>[] = [];
  const collectors: RecordCollector[] = [];
  const exitCodes: Record<Victim, number | null> = { router: null, agent: null };
  let publisher: OrderedPublisher | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let finished = false;
  try {
    const progressOf = await followProgress(brokers, topics, collectors);
    let lastTotal = -1;
    let lastProgressAt = Date.now();
    /** Waits for `condition`; false instead when nothing moved for the stall timeout, past the deadline, or once finished. */
    const until = async (condition: () => boolean, description: string): Promise<boolean> => {
      const outcome = await waitFor(
        () => {
          if (finished) return 'finished';
          if (condition()) return 'done';
          const total = progressOf.router() + progressOf.agent();
          if (total !== lastTotal) [lastTotal, lastProgressAt] = [total, Date.now()];
          return Date.now() - lastProgressAt > stallTimeoutMs || Date.now() > deadline ? 'gave up' : false;
        },
        { description, timeoutMs: Math.max(0, deadline - Date.now()) + 60_000, intervalMs: 25 },
      );
      if (outcome === 'gave up') problems.push(`gave up waiting for ${description} (stalled or past the deadline)`);
      return outcome === 'done';
    };
    ticker = setInterval(
      () =>
        say(
          `published ${publisher?.sent ?? 0}/${handoffs}, routed ${progressOf.router()}, ` +
            `completed ${progressOf.agent()}, kills ${kills.length}/${steps.length}`,
        ),
      options.progressIntervalMs ?? 5_000,
    );
    const sending = publishInOrder({
      brokers,
      topic: topics.inbound,
      records,
      waitForRoom: (next) => until(() => progressOf.agent() >= next - window, `room to publish handoff ${next}`),
      retryUntil: deadline,
      onRetry: say,
    });
    publisher = sending;

    const ready: Record<Victim, boolean> = { router: true, agent: true };
    const baseline: Record<Victim, number> = { router: 0, agent: 0 };
    const running = (victim: Victim) => ready[victim] && services[victim].current !== undefined;
    const queued = (): Record<Victim, number> => ({
      router: sending.sent - progressOf.router(),
      agent: progressOf.router() - progressOf.agent(),
    });
    const killing = (async () => {
      let order: [Victim, Victim] = ['agent', 'router'];
      for (const [index, planned] of steps.entries()) {
        const second = index % 2 === 1;
        if (!second) {
          // A pair starts with both services up, the one with the shorter queue killed first.
          if (!(await until(() => running('router') && running('agent'), `both services up for kill ${index + 1}`)))
            return;
          order = pairOrder(queued());
        }
        const victim = order[second ? 1 : 0];
        const done = progressOf[victim];
        const killsLeft = Math.ceil((steps.length - index) / 2);
        const queue = second ? Math.floor(queued()[victim] / 2) : Infinity;
        const step = cappedStep(planned, handoffs - baseline[victim], killsLeft, queue);
        const armed = await until(
          () => running(victim) && (done() >= baseline[victim] + step || done() >= handoffs),
          `kill ${index + 1} (${victim})`,
        );
        if (!armed) return;
        if (done() >= handoffs) {
          problems.push(`kill ${index + 1} of the ${victim} not made: it had finished every handoff`);
          continue;
        }
        const pid = services[victim].current?.child.pid;
        kills.push({ victim, atMs: Date.now() - startedAt, victimProgress: done() });
        ready[victim] = false;
        say(
          `kill ${kills.length}/${steps.length}: SIGKILL ${victim} (pid ${pid}) at ${done()} handoffs ` +
            `(routed ${progressOf.router()}, completed ${progressOf.agent()}); starting it again`,
        );
        // The next kill waits for its victim's own progress after this one, and after its restart.
        baseline.router = progressOf.router();
        baseline.agent = progressOf.agent();
        restarts.push(
          services[victim].killAndRestart().then(
            () => {
              baseline[victim] = Math.max(baseline[victim], done());
              ready[victim] = true;
              say(`${victim} started again`);
            },
            (error: unknown) => {
              if (!finished) problems.push(`the ${victim} did not start again: ${String(error)}`);
            },
          ),
        );
      }
    })();

    const disrupting = (async () => {
      for (const disruption of options.disruptions ?? []) {
        const atProgress = disruption.atProgress;
        if (!(await until(() => progressOf.agent() >= atProgress, `${disruption.name} at ${atProgress}`))) return;
        const at = Date.now();
        say(`${disruption.name} (completed ${progressOf.agent()})`);
        await disruption.run();
        disruptions.push({ name: disruption.name, atMs: at - startedAt, tookMs: Date.now() - at });
        say(`${disruption.name}: done in ${since(at)}`);
      }
    })();

    await Promise.all([sending.done, killing, disrupting]);
    await Promise.all(restarts);
    await until(
      () => progressOf.router() >= handoffs && progressOf.agent() >= handoffs,
      'every handoff routed and completed',
    );
  } finally {
    finished = true;
    clearInterval(ticker);
    await publisher?.close();
    // SIGTERM: drain and commit. Nothing is written after both have exited, so the reads below are final.
    exitCodes.router = await services.router.stop('SIGTERM');
    exitCodes.agent = await services.agent.stop('SIGTERM');
    await Promise.all(collectors.map((collector) => collector.stop()));
  }
  say(`services stopped (router ${exitCodes.router}, agent ${exitCodes.agent}); reading every topic to its end`);

  const effects = await auditChaosEffects({
    brokers,
    topics,
    agentId: AGENT_ID,
    routerId: ROUTER_ID,
    outcomeCodec,
    published,
  });
  const summary = (service: KillableService) => ({
    kills: service.kills,
    unexpectedExits: service.unexpectedExits,
    failedStarts: service.failedStarts,
    duplicatesSkipped: service.logs().filter((line) => line.event === 'message.duplicate').length,
  });
  if (kills.length < steps.length) problems.push(`${kills.length} of ${steps.length} planned kills were made`);
  const sent = publisher?.sent ?? 0;
  return {
    seed,
    published: sent,
    kills,
    services: { router: summary(services.router), agent: summary(services.agent) },
    disruptions,
    resentBatches: publisher?.resentBatches ?? 0,
    exitCodes,
    problems,
    durationMs: Date.now() - startedAt,
    ...effects,
    ok:
      problems.length === 0 &&
      sent === handoffs &&
      Object.values(effects.audits).every((audit) => audit.ok) &&
      effects.deadLetters === 0 &&
      effects.seqMismatches === 0 &&
      Object.keys(effects.otherEvents).length === 0,
  };
}

/** The run's handoffs: task `index % tasks`, each body carrying its sequence number within its task. */
function chaosHandoffs(codec: HandoffCodec, topics: TopicNames, handoffs: number, tasks: number) {
  const published: ChaosHandoff[] = [];
  const records: OutputRecord[] = [];
  for (let index = 0; index < handoffs; index += 1) {
    const seq = Math.floor(index / tasks);
    const message = buildHandoff({
      metadata: { sender_id: 'chaos_test', recipient_id: AGENT_ID, task_id: `task-${index % tasks}` },
      // The probe agent records the seq in its ledger entry, as the body carried it.
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: JSON.stringify({ seq }) } },
    });
    published.push({ messageId: message.metadata.message_id, taskId: message.metadata.task_id, seq });
    records.push(handoffRecord(codec, topics.inbound, message));
  }
  return { published, records };
}

/** The router and the probe agent, each its own process, killable, on the run's topics. */
async function startServices(
  options: ExactlyOnceChaosOptions,
  topics: TopicNames,
  say: (line: string) => void,
): Promise<Record<Victim, KillableService>> {
  const env = (service: string, incarnation: number): Record<string, string> => ({
    KAFKA_BROKERS: options.brokers.join(','),
    SCHEMA_REGISTRY_URL: options.schemaRegistryUrl,
    BATON_TOPIC_PREFIX: topics.prefix,
    BATON_PARTITIONS: String(options.partitions ?? 6),
    BATON_INSTANCE_ID: `${topics.prefix}-${service}-${incarnation}`,
    // The run is about exactly once, not about liveness: a killed agent's card must not make the
    // router dead-letter its handoffs with NO_LIVE_AGENT while the agent restarts.
    BATON_LIVENESS_WINDOW_MS: String(3_600_000),
    LOG_LEVEL: 'info',
  });
  const start = async (entry: string, serviceEnv: Record<string, string>) => {
    const service = await startServiceProcess(entry, serviceEnv);
    options.onSpawn?.(service.child);
    return service;
  };
  // Side by side: each creates the topics it reads and writes that do not exist yet.
  const [router, agent] = await Promise.allSettled([
    startKillableService({
      name: 'router',
      start: (n) => start('services/router/src/main.ts', { ...env('router', n), ROUTING_TABLE }),
      onEvent: say,
    }),
    startKillableService({
      name: 'agent',
      start: (n) => start('test/fixtures/probe-agent/main.ts', env('agent', n)),
      onEvent: say,
    }),
  ]);
  if (router.status === 'fulfilled' && agent.status === 'fulfilled')
    return { router: router.value, agent: agent.value };
  for (const started of [router, agent]) if (started.status === 'fulfilled') await started.value.stop('SIGKILL');
  throw (router.status === 'rejected' ? router.reason : (agent as PromiseRejectedResult).reason) as Error;
}

/** Live counts of distinct handoffs the router has put in the agent's inbox and the agent has completed. */
async function followProgress(
  brokers: string[],
  topics: TopicNames,
  collectors: RecordCollector[],
): Promise<Record<Victim, () => number>> {
  const inbox = await collectRecords(brokers, topics.agentInbox(AGENT_ID));
  collectors.push(inbox);
  const ledger = await collectRecords(brokers, topics.ledger);
  collectors.push(ledger);
  return {
    router: distinctCounter(inbox, (record) => record.headers.ce_id),
    agent: distinctCounter(ledger, (record) => parseLedgerEntry(record.value as Buffer).message_id),
  };
}

/** Distinct ids seen by a live collector, counted as records arrive. */
function distinctCounter(collector: RecordCollector, idOf: (record: CollectedRecord) => string | undefined) {
  const seen = new Set<string>();
  let read = 0;
  return () => {
    for (; read < collector.records.length; read += 1) {
      const id = idOf(collector.records[read] as CollectedRecord);
      if (id !== undefined) seen.add(id);
    }
    return seen.size;
  };
}
