import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAgentRegistration, type AgentRegistration } from '@baton/agent-registry';
import { buildHandoff, type HandoffOutcome, type Immutable } from '@baton/protocol';
import {
  startBatonRig,
  uniqueName,
  waitFor,
  type BatonRig,
  type RecordCollector,
  type ServiceProcess,
} from './helpers/index.js';

/** Short intervals, so a dead instance is noticed within seconds. */
const HEARTBEAT_MS = 500;
const WINDOW_MS = 1_500;
const VIEWER_TOKEN = 'registry-viewer-token';
const TIMEOUT_MS = 30_000;

interface RegistryRig {
  rig: BatonRig;
  /** The records of `<prefix>.agents`, as the test reads them. */
  agents: RecordCollector;
  events: RecordCollector;
  gateway: ServiceProcess | undefined;
  /** Starts the probe agent as `agentId`, heartbeating every 500 ms; registered with the rig as `name`. */
  probe(name: string, agentId: string, env?: Record<string, string>): Promise<ServiceProcess>;
  /** Publishes a STATUS_UPDATE for the probe agent, addressed to `recipient`; resolves with its task id. */
  publish(recipient: string, script?: Record<string, unknown>): Promise<string>;
  /** The outcome event of `taskId` from `agentId` (the router included) once it is there. */
  outcome(taskId: string, agentId: string): Promise<Immutable<HandoffOutcome>>;
  /** The registrations (null: tombstone) of one key, in the order read. */
  registrations(key: string): (AgentRegistration | null)[];
  /** GET /v1/agents on the gateway, by agent id. */
  agentsByGateway(): Promise<Record<string, any>>;
  /** Resolves once the router has logged the registration of `agentId`'s instance. */
  routerSaw(agentId: string, event?: 'registry.instance_registered' | 'registry.instance_deregistered'): Promise<void>;
}

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A router with `table` and a liveness window of 1.5 s, optionally a gateway, on topics of its own. */
async function registryRig(name: string, table: string, options: { gateway?: boolean } = {}): Promise<RegistryRig> {
  const dir = mkdtempSync(join(tmpdir(), `baton-${name}-`));
  writeFileSync(join(dir, 'table.yaml'), table);
  const rig = await startBatonRig({
    name,
    agents: [],
    routerEnv: { ROUTING_TABLE: join(dir, 'table.yaml'), BATON_LIVENESS_WINDOW_MS: String(WINDOW_MS) },
  });
  cleanups.push(async () => {
    await rig.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const router = rig.services.router as ServiceProcess;
  // The router creates the registry topic at start, so it can be read from here on.
  const agents = await rig.collect(rig.topics.agents);
  const events = await rig.collect(rig.topics.events);
  const gateway = options.gateway
    ? await rig.addProcess('gateway', 'services/gateway/src/main.ts', {
        BATON_API_KEYS: `viewer:${VIEWER_TOKEN}:viewer`,
        BATON_LIVENESS_WINDOW_MS: String(WINDOW_MS),
      })
    : undefined;
  return {
    rig,
    agents,
    events,
    gateway,
    probe: (serviceName, agentId, env = {}) =>
      rig.addProcess(serviceName, 'test/fixtures/probe-agent/main.ts', {
        PROBE_AGENT_ID: agentId,
        BATON_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_MS),
        ...env,
      }),
    async publish(recipient, script = { seq: 1 }) {
      const taskId = uniqueName('task');
      await rig.publisher.publish(
        rig.topics.inbound,
        buildHandoff({
          metadata: { sender_id: 'registry_test', recipient_id: recipient, task_id: taskId },
          payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: JSON.stringify(script) } },
          instructions: { failure_handling_strategy: { retry_count: 0 } },
        }),
      );
      return taskId;
    },
    outcome: (taskId, agentId) =>
      waitFor(async () => (await rig.outcomes(events, taskId)).find((event) => event.agent_id === agentId), {
        description: `the outcome of ${taskId} at ${agentId}`,
        timeoutMs: TIMEOUT_MS,
      }),
    registrations: (key) =>
      agents.records
        .filter((record) => record.key === key)
        .map((record) => (record.value === null ? null : parseAgentRegistration(record.value))),
    async agentsByGateway() {
      const response = await fetch(`${gateway?.address}/v1/agents`, {
        headers: { authorization: `Bearer ${VIEWER_TOKEN}` },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { agents: { agent_id: string }[] };
      return Object.fromEntries(body.agents.map((agent) => [agent.agent_id, agent]));
    },
    async routerSaw(agentId, event = 'registry.instance_registered') {
      await waitFor(() => router.logs.some((line) => line.event === event && line.agent_id === agentId), {
        description: `the router logging ${event} of ${agentId}`,
        timeoutMs: TIMEOUT_MS,
      });
    },
  };
}

/** The gaps, in ms, between consecutive heartbeat times. */
function gaps(times: number[]): number[] {
  return times.slice(1).map((time, index) => time - (times[index] as number));
}

describe('the agent registry', () => {
  it('holds an agent’s card and heartbeats, even while a slow handler runs; SIGTERM deregisters it and its traffic goes to the fallback at once', async () => {
    const setup = await registryRig(
      'reg-card',
      `version: 1
agents: [probe_alpha, probe_beta]
rules:
  - id: alpha
    match: { recipient_id: alpha_desk }
    target: probe_alpha
    fallback: probe_beta
`,
      { gateway: true },
    );
    const alpha = await setup.probe('alpha', 'probe_alpha', {
      PROBE_AGENT_DOMAIN: 'operations',
      PROBE_AGENT_SKILLS: 'reconcile,audit',
    });
    await setup.probe('beta', 'probe_beta');
    const key = 'probe_alpha/reg-card-alpha';

    // The card, from the agent's definition and the chassis's defaults.
    const [first] = await waitFor(() => setup.registrations(key).length > 0 && setup.registrations(key), {
      description: 'the registration of probe_alpha',
    });
    expect(first).toEqual({
      card: {
        agent_id: 'probe_alpha',
        name: 'ProbeAlpha',
        domain: 'operations',
        skills: [{ name: 'reconcile' }, { name: 'audit' }],
        input_modes: ['TEXT'],
        output_modes: ['TEXT'],
        version: '1.0.0',
        instance_id: 'reg-card-alpha',
        started_at: expect.any(String),
        heartbeat_interval_ms: HEARTBEAT_MS,
      },
      last_heartbeat_at: expect.any(String),
    });

    // A handler that takes 3 s does not hold the heartbeats back.
    const slowTask = await setup.publish('alpha_desk', { seq: 1, slow_ms: 3_000 });
    const routed = await setup.outcome(slowTask, 'router');
    expect(routed).toMatchObject({ outcome: 'ROUTED', target: 'probe_alpha' });
    const completed = await setup.outcome(slowTask, 'probe_alpha');
    expect(completed.outcome).toBe('COMPLETED');
    const during = setup
      .registrations(key)
      .filter((registration): registration is AgentRegistration => registration !== null)
      .map((registration) => Date.parse(registration.last_heartbeat_at))
      .filter((time) => time >= Date.parse(routed.time) && time <= Date.parse(completed.time));
    expect(during.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...gaps(during))).toBeLessThan(WINDOW_MS);

    // The gateway shows the card and the liveness of each instance.
    const listed = await waitFor(async () => (await setup.agentsByGateway()).probe_alpha, {
      description: 'probe_alpha in GET /v1/agents',
      timeoutMs: TIMEOUT_MS,
    });
    expect(listed).toMatchObject({
      up: true,
      group_id: `${setup.rig.topics.prefix}.agent.probe_alpha`,
      live: true,
      card: { agent_id: 'probe_alpha', domain: 'operations', skills: [{ name: 'reconcile' }, { name: 'audit' }] },
      instances: [{ instance_id: 'reg-card-alpha', live: true, last_heartbeat_at: expect.any(String) }],
      registrations: [{ instance_id: 'reg-card-alpha', live: true, version: '1.0.0' }],
    });
    expect((await setup.agentsByGateway()).router).toMatchObject({ up: true, live: null, card: null });

    // A clean stop writes the tombstone; the router sends the agent's traffic to the fallback at once.
    expect(await alpha.stop('SIGTERM')).toBe(0);
    await waitFor(() => setup.registrations(key).at(-1) === null, { description: 'the tombstone of probe_alpha' });
    await setup.routerSaw('probe_alpha', 'registry.instance_deregistered');
    const afterStop = await setup.publish('alpha_desk', { seq: 2 });
    expect(await setup.outcome(afterStop, 'router')).toMatchObject({
      outcome: 'ROUTED',
      target: 'probe_beta',
      detail: 'rule alpha, fallback for probe_alpha (no live instance)',
    });
    expect((await setup.outcome(afterStop, 'probe_beta')).outcome).toBe('COMPLETED');
    const gone = await waitFor(
      async () => {
        const agent = (await setup.agentsByGateway()).probe_alpha;
        return agent?.live === false ? agent : undefined;
      },
      { description: 'the gateway showing probe_alpha not live', timeoutMs: TIMEOUT_MS },
    );
    expect(gone).toMatchObject({ live: false, card: null, registrations: [] });
  }, 120_000);

  it('marks an agent killed without deregistering (SIGKILL) not live after its heartbeat window, and sends its traffic to the fallback', async () => {
    const setup = await registryRig(
      'reg-kill',
      `version: 1
agents: [probe_main, probe_backup]
rules:
  - id: main
    match: { recipient_id: main_desk }
    target: probe_main
    fallback: probe_backup
`,
      { gateway: true },
    );
    const backupInbox = await setup.rig.collect(setup.rig.topics.agentInbox('probe_backup'));
    const main = await setup.probe('main', 'probe_main');
    await setup.probe('backup', 'probe_backup');
    await setup.routerSaw('probe_main');
    await setup.routerSaw('probe_backup');

    const before = await setup.publish('main_desk');
    expect(await setup.outcome(before, 'router')).toMatchObject({ outcome: 'ROUTED', target: 'probe_main' });
    expect((await setup.outcome(before, 'probe_main')).outcome).toBe('COMPLETED');

    await main.stop('SIGKILL');
    const dead = await waitFor(
      async () => {
        const agent = (await setup.agentsByGateway()).probe_main;
        return agent?.live === false ? agent : undefined;
      },
      { description: 'the gateway showing probe_main not live', timeoutMs: TIMEOUT_MS, intervalMs: 100 },
    );
    // No tombstone: the registration is still there, expired.
    expect(dead.registrations).toEqual([expect.objectContaining({ instance_id: 'reg-kill-main', live: false })]);
    expect(setup.registrations('probe_main/reg-kill-main').at(-1)).not.toBeNull();

    // Handoffs published meanwhile may still reach the dead agent's inbox until the router's window
    // has passed too; from then on they go to the fallback.
    const { taskId, routed } = await waitFor(
      async () => {
        const task = await setup.publish('main_desk');
        const event = await setup.outcome(task, 'router');
        return event.target === 'probe_backup' ? { taskId: task, routed: event } : undefined;
      },
      { description: 'a handoff for probe_main routed to the fallback', timeoutMs: TIMEOUT_MS },
    );
    expect(routed).toMatchObject({
      outcome: 'ROUTED',
      detail: 'rule main, fallback for probe_main (no live instance)',
    });
    const lastHeartbeat = Math.max(
      ...setup
        .registrations('probe_main/reg-kill-main')
        .map((registration) => Date.parse(registration?.last_heartbeat_at ?? '')),
    );
    expect(Date.parse(routed.time) - lastHeartbeat).toBeGreaterThan(WINDOW_MS);
    expect((await setup.outcome(taskId, 'probe_backup')).outcome).toBe('COMPLETED');
    const dispatched = backupInbox.records.find((record) => record.key === taskId);
    expect(dispatched?.headers).toMatchObject({
      'baton.route.rule': 'main',
      'baton.route.target': 'probe_backup',
      'baton.route.fallback-for': 'probe_main',
    });
  }, 120_000);

  it('dead-letters with NO_LIVE_AGENT when the agent is not live and there is no fallback', async () => {
    const setup = await registryRig(
      'reg-nolive',
      `version: 1
agents: [probe_solo]
rules:
  - id: solo
    match: { recipient_id: solo_desk }
    target: probe_solo
`,
    );
    const dlq = await setup.rig.collect(`${setup.rig.topics.inbound}.dlq`);
    const solo = await setup.probe('solo', 'probe_solo');
    await setup.routerSaw('probe_solo');
    await solo.stop('SIGKILL');
    const { taskId, event } = await waitFor(
      async () => {
        const task = await setup.publish('solo_desk');
        const outcome = await setup.outcome(task, 'router');
        return outcome.outcome === 'DEAD_LETTERED' ? { taskId: task, event: outcome } : undefined;
      },
      { description: 'a handoff for the dead probe_solo dead-lettered', timeoutMs: TIMEOUT_MS },
    );
    expect(event).toMatchObject({
      error_code: 'NO_LIVE_AGENT',
      detail: '"probe_solo" (rule solo) has no live instance and no fallback is configured',
    });
    const letter = await waitFor(() => dlq.records.find((record) => record.key === taskId), {
      description: 'the dead letter',
    });
    expect(letter.headers).toMatchObject({
      'baton.dlq.error.code': 'NO_LIVE_AGENT',
      'baton.dlq.error.retriable': 'false',
      '__connect.errors.stage': 'route',
    });
  }, 120_000);

  it('routes by skill or domain to a live agent when no rule matches (discovery)', async () => {
    const setup = await registryRig(
      'reg-skill',
      `version: 1
agents: [probe_static]
rules: []
discovery: true
`,
    );
    await setup.probe('skilled', 'probe_skilled', {
      PROBE_AGENT_DOMAIN: 'finance',
      PROBE_AGENT_SKILLS: 'reconcile_ledger',
    });
    await setup.routerSaw('probe_skilled');
    for (const wanted of ['reconcile_ledger', 'finance']) {
      const taskId = await setup.publish(wanted);
      expect(await setup.outcome(taskId, 'router'), wanted).toMatchObject({
        outcome: 'ROUTED',
        target: 'probe_skilled',
        detail: 'rule discovery',
      });
      expect((await setup.outcome(taskId, 'probe_skilled')).outcome).toBe('COMPLETED');
    }
    const nobody = await setup.publish('astrology');
    expect(await setup.outcome(nobody, 'router')).toMatchObject({ outcome: 'DEAD_LETTERED', error_code: 'NO_ROUTE' });
  }, 120_000);
});
