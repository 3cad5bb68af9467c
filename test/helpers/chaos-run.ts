import type { ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { agentGroupId, parseLedgerEntry } from '@baton/agent-sdk';
import { createKafka, describeConsumerGroups, topicNames, type OutputRecord, type TopicNames } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import { handoffRecord } from '@baton/runtime';
import { SchemaRegistryClient, createHandoffCodec, createOutcomeCodec, type HandoffCodec } from '@baton/wire';
import { auditChaosEffects, type ChaosEffects, type ChaosHandoff } from './chaos-effects.js';
import { startKillableService, type KillableService } from './killable-service.js';
import { cappedStep, pairOrder, planKillSteps, seededRandom, type Victim } from './kill-plan.js';
import { lastCompletionMs, longestPauseMs } from './completion-pauses.js';
import { publishThroughGateways, type GatewayHandoff } from './gateway-publisher.js';
import { publishInOrder, type OrderedPublisher } from './ordered-publisher.js';
import { collectRecords, type CollectedRecord, type RecordCollector } from './record-collector.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { uniqueName } from './unique-name.js';
import { waitFor } from './wait-for.js';

const AGENT_ID = 'probe_agent';
const ROUTER_ID = 'router';
const ROUTING_TABLE = 'test/fixtures/chaos-routing-table.yaml';
const DEFAULT_PARTITIONS = 6;
/** The credential the run's gateways take from its publisher (publisher role only). */
const CHAOS_PUBLISHER_TOKEN = 'chaos-publisher-token';

/** Something done to the system besides the kills, once the agent has completed `atProgress` handoffs. */
export interface ChaosDisruption {
  name: string;
  atProgress: number;
  /** Resolves once the system is whole again (a broker back and in sync), with what was done when it says more than the name. */
  run(run: ChaosRunContext): Promise<string | void>;
}

/** What a disruption knows of the run it disrupts. */
export interface ChaosRunContext {
  topics: TopicNames;
  partitions: number;
  /** The consumer groups of the router and of the agent. */
  groups: Record<Victim, string>;
  /** Instances of a service added and taken away while the run goes on. */
  scale: InstanceScaling;
  /** SIGKILLs a gateway instance, each in turn, and starts it again; resolves with its name once it runs. */
  killGateway(): Promise<string>;
  say(line: string): void;
}

/** Scaling a service out and in during a run: the kills then take the instances there are, in turn. */
export interface InstanceScaling {
  /** Starts one more instance of `victim` in its group; resolves with its name once it runs. */
  add(victim: Victim): Promise<string>;
  /**
   * Takes a running instance of `victim` away for good with `signal`: SIGTERM drains and commits
   * what it holds (an exit code other than 0 is a problem of the run), SIGKILL leaves its group to
   * find out by the session timeout. Resolves with what was done.
   */
  remove(victim: Victim, signal: 'SIGTERM' | 'SIGKILL'): Promise<string>;
}

export interface ExactlyOnceChaosOptions {
  brokers: string[];
  schemaRegistryUrl: string;
  handoffs: number;
  tasks: number;
  kills: number;
  /** Processes of the router and of the agent, each in its service's consumer group. @default 1 */
  instances?: number;
  /** Handoffs published per second at most, so faults meet a steady flow however fast it drains. @default no limit */
  ratePerSecond?: number;
  /**
   * Gateway instances the handoffs are published through (POST /v1/handoffs, each task's in order,
   * a failed POST sent again to the next gateway); 0 publishes them to the inbound topic directly,
   * with an ordered idempotent producer. @default 0
   */
  gateways?: number;
  /** @default 6 */
  partitions?: number;
  /** A folder each service process's output is written to at the end, `<instance>-<incarnation>.log`. @default none */
  logDir?: string;
  /** Replicas of each topic the services create (BATON_REPLICATION_FACTOR). @default 1 */
  replicationFactor?: number;
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
  /** The process killed: `router`, or `router-2` of several instances. */
  instance: string;
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
  disruptions: { name: string; atMs: number; tookMs: number; detail?: string }[];
  /**
   * Each fault, kills and disruptions in time order, with the longest time no handoff was completed
   * from its start until the next fault (completion-pauses.ts).
   */
  faults: { name: string; atMs: number; longestPauseMs: number }[];
  /**
   * How long the last handoff took to be completed after the later of the last publish and the
   * end of the last fault: the time to drain; undefined when none was completed.
   */
  drainMs: number | undefined;
  /** Sends the publisher made again after one failed (batches, or POSTs through the gateways). */
  resends: number;
  /** Exit codes after the final SIGTERM (0: drained and committed); of several instances, the first that is not 0. */
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
  const { published, records, bodies } = chaosHandoffs(codec, topics, handoffs, options.tasks);
  const { services, startInstance, startGateway } = await startServices(options, topics, say);
  const gateways = await Promise.all(Array.from({ length: options.gateways ?? 0 }, (_, index) => startGateway(index)));
  let gatewayKills = 0;
  /** Instances scaled in: no kill takes them, and their counts and logs still go in the result. */
  const retired: Record<Victim, KillableService[]> = { router: [], agent: [] };
  const killsOf: Record<Victim, number> = { router: 0, agent: 0 };
  /** The instance of `victim` the next kill of it takes: each of those there are now in turn. */
  const target = (victim: Victim) => services[victim][killsOf[victim] % services[victim].length] as KillableService;
  const timeline: [number, number][] = [];

  const problems: string[] = [];
  const groups: Record<Victim, string> = { router: `${topics.prefix}.router`, agent: agentGroupId(topics, AGENT_ID) };
  const groupAdmin = createKafka({ brokers, clientId: 'chaos-scaling', logLevel: 'nothing' });
  /** Waits until the group of `victim` is stable with (`present`) or without the members of `instance`. */
  const settled = async (victim: Victim, instance: string, present: boolean): Promise<string> => {
    const from = Date.now();
    // A member's client id is its incarnation's instance id: `<prefix>-<instance>-<incarnation>`.
    const own = `${topics.prefix}-${instance}-`;
    const members = await waitFor(
      async () => {
        const [group] = await describeConsumerGroups(groupAdmin, (id) => id === groups[victim]);
        const has = group?.members.some((member) => member.clientId.startsWith(own)) ?? false;
        return group?.state === 'Stable' && has === present ? group.members.length : undefined;
      },
      {
        description: `the ${victim}'s group to settle ${present ? 'with' : 'without'} ${instance}`,
        timeoutMs: 120_000,
        intervalMs: 250,
      },
    );
    return `its group stable with ${members} member${members === 1 ? '' : 's'} ${((Date.now() - from) / 1000).toFixed(1)}s later`;
  };
  const scale: InstanceScaling = {
    async add(victim) {
      const instance = await startInstance(victim, services[victim].length + retired[victim].length);
      services[victim].push(instance);
      return `${instance.name} started, ${await settled(victim, instance.name, true)}`;
    },
    async remove(victim, signal) {
      if (services[victim].length < 2) {
        throw new Error(`the ${victim} has no instance to spare: it runs ${services[victim].length}`);
      }
      const instance =
        services[victim].find((service) => service.current !== undefined) ?? (services[victim][0] as KillableService);
      services[victim].splice(services[victim].indexOf(instance), 1);
      retired[victim].push(instance);
      const code = await instance.stop(signal);
      if (signal === 'SIGTERM' && code !== 0) problems.push(`${instance.name} exited with ${code} on SIGTERM`);
      const how = signal === 'SIGTERM' ? `SIGTERM (exit code ${code})` : 'SIGKILL';
      return `${instance.name} stopped by ${how}, ${await settled(victim, instance.name, false)}`;
    },
  };
  const kills: ChaosKill[] = [];
  const disruptions: ExactlyOnceChaosResult['disruptions'] = [];
  const restarts: Promise<unknown>[] = [];
  const collectors: RecordCollector[] = [];
  const exitCodes: Record<Victim, number | null> = { router: null, agent: null };
  let publisher: OrderedPublisher | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let sampler: NodeJS.Timeout | undefined;
  let publishedAtMs = 0;
  let finished = false;
  try {
    const progressOf = await followProgress(brokers, topics, collectors);
    // When the completed count rises, for the pauses after each fault.
    sampler = setInterval(() => {
      const completed = progressOf.agent();
      if (completed !== timeline.at(-1)?.[1]) timeline.push([Date.now() - startedAt, completed]);
    }, 20);
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
    const publishingFrom = Date.now();
    const rate = options.ratePerSecond ?? Infinity;
    const waitForRoom = (next: number) =>
      until(
        () => progressOf.agent() >= next - window && Date.now() - publishingFrom >= (next / rate) * 1_000,
        `room to publish handoff ${next}`,
      );
    const sending =
      gateways.length > 0
        ? publishThroughGateways({
            addresses: () => gateways.flatMap((gateway) => (gateway.current ? [gateway.current.address] : [])),
            token: CHAOS_PUBLISHER_TOKEN,
            handoffs: bodies,
            waitForRoom,
            retryUntil: deadline,
            onRetry: say,
          })
        : publishInOrder({ brokers, topic: topics.inbound, records, waitForRoom, retryUntil: deadline, onRetry: say });
    publisher = sending;

    const ready: Record<Victim, boolean> = { router: true, agent: true };
    const baseline: Record<Victim, number> = { router: 0, agent: 0 };
    const running = (victim: Victim) => ready[victim] && target(victim).current !== undefined;
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
        const instance = target(victim);
        killsOf[victim] += 1;
        const pid = instance.current?.child.pid;
        kills.push({ victim, instance: instance.name, atMs: Date.now() - startedAt, victimProgress: done() });
        ready[victim] = false;
        say(
          `kill ${kills.length}/${steps.length}: SIGKILL ${instance.name} (pid ${pid}) at ${done()} handoffs ` +
            `(routed ${progressOf.router()}, completed ${progressOf.agent()}); starting it again`,
        );
        // The next kill waits for its victim's own progress after this one, and after its restart.
        baseline.router = progressOf.router();
        baseline.agent = progressOf.agent();
        restarts.push(
          instance.killAndRestart().then(
            () => {
              baseline[victim] = Math.max(baseline[victim], done());
              ready[victim] = true;
              say(`${instance.name} started again`);
            },
            (error: unknown) => {
              if (!finished) problems.push(`${instance.name} did not start again: ${String(error)}`);
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
        const detail =
          (await disruption.run({
            topics,
            partitions: options.partitions ?? DEFAULT_PARTITIONS,
            groups,
            scale,
            killGateway: async () => {
              const gateway = gateways[gatewayKills++ % Math.max(1, gateways.length)];
              if (gateway === undefined) throw new Error('the run publishes through no gateway');
              await gateway.killAndRestart();
              return `${gateway.name} killed and started again`;
            },
            say,
          })) ?? undefined;
        disruptions.push({
          name: disruption.name,
          atMs: at - startedAt,
          tookMs: Date.now() - at,
          ...(detail && { detail }),
        });
        say(`${disruption.name}: done in ${since(at)}${detail ? ` (${detail})` : ''}`);
      }
    })();

    const published = sending.done.then(() => {
      publishedAtMs = Date.now() - startedAt;
    });
    await Promise.all([published, killing, disrupting]);
    await Promise.all(restarts);
    await until(
      () => progressOf.router() >= handoffs && progressOf.agent() >= handoffs,
      'every handoff routed and completed',
    );
  } catch (error) {
    // Reported with the counts rather than instead of them: what was written is still audited.
    problems.push(`the run failed: ${error instanceof Error ? error.message : String(error)}`);
    say(`the run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    finished = true;
    clearInterval(ticker);
    clearInterval(sampler);
    await publisher?.close();
    for (const [index, code] of (await Promise.all(gateways.map((gateway) => gateway.stop('SIGTERM')))).entries()) {
      if (code !== 0) problems.push(`${gateways[index]?.name} exited with ${code} on SIGTERM`);
    }
    // SIGTERM: drain and commit. Nothing is written after all have exited, so the reads below are final.
    exitCodes.router = firstFailure(await Promise.all(services.router.map((service) => service.stop('SIGTERM'))));
    exitCodes.agent = firstFailure(await Promise.all(services.agent.map((service) => service.stop('SIGTERM'))));
    await Promise.all(collectors.map((collector) => collector.stop()));
    if (options.logDir !== undefined)
      await writeServiceLogs(options.logDir, [
        ...services.router,
        ...services.agent,
        ...retired.router,
        ...retired.agent,
        ...gateways,
      ]);
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
  const summary = (instancesOf: KillableService[]) => {
    const sum = (count: (service: KillableService) => number) =>
      instancesOf.reduce((total, service) => total + count(service), 0);
    return {
      kills: sum((service) => service.kills),
      unexpectedExits: sum((service) => service.unexpectedExits),
      failedStarts: sum((service) => service.failedStarts),
      duplicatesSkipped: sum((service) => service.logs().filter((line) => line.event === 'message.duplicate').length),
    };
  };
  const endMs = Date.now() - startedAt;
  const faultStarts = [
    ...kills.map((kill) => ({ name: `SIGKILL ${kill.instance}`, atMs: kill.atMs, endMs: kill.atMs })),
    ...disruptions.map((d) => ({
      name: d.detail ? `${d.name}: ${d.detail}` : d.name,
      atMs: d.atMs,
      endMs: d.atMs + d.tookMs,
    })),
  ].sort((a, b) => a.atMs - b.atMs);
  const faults = faultStarts.map((fault, index) => ({
    name: fault.name,
    atMs: fault.atMs,
    longestPauseMs: longestPauseMs(timeline, fault.atMs, faultStarts[index + 1]?.atMs ?? endMs, handoffs),
  }));
  const drainFromMs = Math.max(publishedAtMs, ...faultStarts.map((fault) => fault.endMs));
  const lastCompletion = lastCompletionMs(timeline);
  if (kills.length < steps.length) problems.push(`${kills.length} of ${steps.length} planned kills were made`);
  const sent = publisher?.sent ?? 0;
  return {
    seed,
    published: sent,
    kills,
    services: {
      router: summary([...services.router, ...retired.router]),
      agent: summary([...services.agent, ...retired.agent]),
    },
    disruptions,
    faults,
    drainMs: lastCompletion === undefined ? undefined : Math.max(0, lastCompletion - drainFromMs),
    resends: publisher?.resends ?? 0,
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
  const bodies: GatewayHandoff[] = [];
  for (let index = 0; index < handoffs; index += 1) {
    const seq = Math.floor(index / tasks);
    const message = buildHandoff({
      metadata: { sender_id: 'chaos_test', recipient_id: AGENT_ID, task_id: `task-${index % tasks}` },
      // The probe agent records the seq in its ledger entry, as the body carried it.
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: JSON.stringify({ seq }) } },
    });
    published.push({ messageId: message.metadata.message_id, taskId: message.metadata.task_id, seq });
    records.push(handoffRecord(codec, topics.inbound, message));
    bodies.push({ taskId: message.metadata.task_id, body: message as unknown as Record<string, unknown> });
  }
  return { published, records, bodies };
}

/** The router and the probe agent, `instances` processes of each, killable, on the run's topics. */
async function startServices(
  options: ExactlyOnceChaosOptions,
  topics: TopicNames,
  say: (line: string) => void,
): Promise<{
  services: Record<Victim, KillableService[]>;
  /** Starts the instance of `victim` numbered `index` (from 0): for scaling out. */
  startInstance(victim: Victim, index: number): Promise<KillableService>;
  /** Starts gateway instance `index` (from 0), which takes CHAOS_PUBLISHER_TOKEN. */
  startGateway(index: number): Promise<KillableService>;
}> {
  const env = (service: string, incarnation: number): Record<string, string> => ({
    KAFKA_BROKERS: options.brokers.join(','),
    SCHEMA_REGISTRY_URL: options.schemaRegistryUrl,
    BATON_TOPIC_PREFIX: topics.prefix,
    BATON_PARTITIONS: String(options.partitions ?? DEFAULT_PARTITIONS),
    BATON_REPLICATION_FACTOR: String(options.replicationFactor ?? 1),
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
  const instances = options.instances ?? 1;
  // One instance is named for its service; of several (or once scaled out) each has its number.
  const named = (victim: Victim, index: number) => (instances === 1 && index === 0 ? victim : `${victim}-${index + 1}`);
  const entries: Record<Victim, (name: string, n: number) => Promise<ServiceProcess>> = {
    router: (name, n) => start('services/router/src/main.ts', { ...env(name, n), ROUTING_TABLE }),
    agent: (name, n) => start('test/fixtures/probe-agent/main.ts', env(name, n)),
  };
  // Side by side: each creates the topics it reads and writes that do not exist yet.
  const startInstance = (victim: Victim, index: number) => {
    const name = named(victim, index);
    return startKillableService({ name, start: (n) => entries[victim](name, n), onEvent: say });
  };
  const victims: Victim[] = ['router', 'agent'];
  const starts = victims.flatMap((victim) =>
    Array.from({ length: instances }, (_, index) => startInstance(victim, index)),
  );
  const started = await Promise.allSettled(starts);
  const failure = started.find((result) => result.status === 'rejected');
  const up = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failure) {
    for (const service of up) await service.stop('SIGKILL');
    throw failure.reason as Error;
  }
  const startGateway = (index: number) => {
    const name = `gateway-${index + 1}`;
    return startKillableService({
      name,
      start: (n) =>
        start('services/gateway/src/main.ts', {
          ...env(name, n),
          BATON_API_KEYS: `chaos:${CHAOS_PUBLISHER_TOKEN}:publisher`,
        }),
      onEvent: say,
    });
  };
  return { services: { router: up.slice(0, instances), agent: up.slice(instances) }, startInstance, startGateway };
}

/** Every line each incarnation of each service printed, a file per incarnation. */
async function writeServiceLogs(dir: string, services: KillableService[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    services.flatMap((service) =>
      service.incarnations.map((incarnation, index) =>
        writeFile(join(dir, `${service.name}-${index + 1}.log`), `${incarnation.lines.join('\n')}\n`),
      ),
    ),
  );
}

/** Of several exit codes, the first that is not 0 (null: still running), else 0. */
function firstFailure(codes: (number | null)[]): number | null {
  const failed = codes.findIndex((code) => code !== 0);
  return failed < 0 ? 0 : (codes[failed] as number | null);
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
