import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKafka, RecordProducer } from '@baton/kafka';
import {
  digestOf,
  SEAL_HEADER,
  signMessage,
  TrustStore,
  VerificationSeals,
  type SigningKey,
} from '@baton/message-signing';
import { buildHandoff, type HandoffOutcome } from '@baton/protocol';
import type { TaskAnswer } from '@baton/gateway-api';
import type { TaskView } from '@baton/task-tracking';
import {
  TestSigningKeys,
  expectCleanExits,
  startBatonRig,
  uniqueName,
  waitFor,
  type BatonRig,
  type RecordCollector,
  type ServiceProcess,
} from './helpers/index.js';

/**
 * Outcome events come from their owner: with every service requiring signatures, the tracker and
 * the gateway fold a task's outcome events only when signed by a key of the agent they name, and
 * only from an agent that holds the task. An agent's key forging another agent's COMPLETED, an
 * unsigned COMPLETED, and a COMPLETED the agent signed itself for a task it was never given change
 * nothing, and each is counted by its code.
 */

const FLOW_TIMEOUT_MS = 30_000;
const BILLING = 'billing_agent';
const INTRUDER = 'sales_agent';
const VIEWER_TOKEN = 'forged-outcomes-viewer-token';

/** The value of one sample of `name` in a /metrics text whose labels include `labels`, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const line = text
    .split('\n')
    .find((each) => each.startsWith(`${name}{`) && wanted.every((pair) => each.includes(pair)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('forged outcome events (BATON_SIGNATURES=required)', () => {
  const keys = new TestSigningKeys();
  let rig: BatonRig;
  let tracker: ServiceProcess;
  let gateway: ServiceProcess;
  let events: RecordCollector;
  let billingKey: SigningKey;
  let intruderKey: SigningKey;

  const trackerView = async (taskId: string): Promise<TaskView | undefined> => {
    const response = await fetch(`${tracker.address}/v1/tasks/${encodeURIComponent(taskId)}`);
    return response.status === 200 ? ((await response.json()) as TaskView) : undefined;
  };
  const gatewayView = async (taskId: string): Promise<TaskAnswer | undefined> => {
    const response = await fetch(`${gateway.address}/v1/tasks/${encodeURIComponent(taskId)}`, {
      headers: { authorization: `Bearer ${VIEWER_TOKEN}` },
    });
    return response.status === 200 ? ((await response.json()) as TaskAnswer) : undefined;
  };
  const metricsOf = async (service: ServiceProcess) => (await fetch(`${service.address}/metrics`)).text();

  beforeAll(async () => {
    for (const identity of ['router', 'user']) keys.issue(identity, `${identity}-2026-12`);
    // The two readers of outcome events: writers seal each event for them.
    keys.issue('tracker', 'tracker-2026-12', ['tracker'], { reads: ['outcome'] });
    keys.issue('gateway', 'gateway-2026-12', ['*'], { reads: ['outcome'] });
    billingKey = keys.issue(BILLING, 'billing-2026-12');
    intruderKey = keys.issue(INTRUDER, 'sales-2026-12');
    const table = join(keys.dir, 'routing-table.yaml');
    writeFileSync(table, `version: 1\nagents: [${BILLING}]\nrules: []\ndefault: ${BILLING}\n`);
    rig = await startBatonRig({
      name: 'forged-outcomes',
      agents: [],
      routerEnv: { ROUTING_TABLE: table },
      serviceEnv: (name) => keys.envFor(name),
    });
    [tracker, gateway, events] = await Promise.all([
      rig.addProcess('tracker', 'services/tracker/src/main.ts', keys.envFor('tracker')),
      rig.addProcess('gateway', 'services/gateway/src/main.ts', {
        ...keys.envFor('gateway'),
        BATON_API_KEYS: `watcher:${VIEWER_TOKEN}:viewer`,
      }),
      rig.collect(rig.topics.events),
    ]);
  });

  afterAll(async () => {
    const exitCodes = await rig?.stop();
    keys.cleanup();
    expectCleanExits(exitCodes);
  });

  it('folds neither a forged, an unsigned, nor a non-holder COMPLETED; the holder’s own finishes the task', async () => {
    const taskId = uniqueName('refund');
    const request = keys.sign(
      buildHandoff({
        metadata: { sender_id: 'user', recipient_id: BILLING, task_id: taskId },
        payload: {
          handoff_type: 'TASK_TRANSFER',
          data: { issue_category: 'BILLING', task_summary: 'Refund the double charge' },
        },
      }),
      'user',
    );
    await rig.publisher.publish(rig.topics.inbound, request);
    // No billing agent runs: the task stays with it, EXECUTING, once routed.
    const [routed] = await waitFor(
      async () => {
        const outcomes = await rig.outcomes(events, taskId);
        return outcomes.length > 0 ? outcomes : undefined;
      },
      { description: 'the router’s ROUTED', timeoutMs: FLOW_TIMEOUT_MS },
    );
    expect(routed).toMatchObject({ agent_id: 'router', outcome: 'ROUTED', target: BILLING });
    // Sealed for the tracker and the gateway, in its record's header, not signed.
    expect(routed?.signature).toBeUndefined();
    expect(events.records.find((record) => record.key === taskId)?.headers[SEAL_HEADER]).toMatch(
      /^x25519-blake2b-128:router-2026-12:tracker-2026-12=[\w-]{22},gateway-2026-12=[\w-]{22}$/,
    );
    for (const view of [trackerView, gatewayView]) {
      await waitFor(async () => (await view(taskId))?.status === 'EXECUTING', {
        description: 'the task routed to the billing agent',
        timeoutMs: FLOW_TIMEOUT_MS,
      });
    }

    const started = Date.now();
    // Each a second apart, so the gateway's timeline, which shows no event ids, tells them apart by time.
    const completed = (agentId: string, second: number): HandoffOutcome => ({
      event_id: randomUUID(),
      time: new Date(started + second * 1_000).toISOString(),
      task_id: taskId,
      message_id: request.metadata.message_id,
      agent_id: agentId,
      handoff_type: 'TASK_TRANSFER',
      outcome: 'COMPLETED',
    });
    // The sales agent's key claiming the billing agent's COMPLETED, signed and sealed; no signature
    // at all; the sales agent's own COMPLETED, validly signed, of a task it was never given; then
    // the billing agent's own, sealed for the readers as agents write them.
    const trustStore = new TrustStore({ file: keys.trustStoreFile });
    const record = (event: HandoffOutcome, sealedBy?: SigningKey) => {
      const value = rig.outcomeCodec.encode(event);
      const headers: Record<string, string> = {};
      const seal =
        sealedBy &&
        new VerificationSeals(sealedBy, trustStore).sealFor(digestOf(value), trustStore.readersOf('outcome'));
      if (seal !== undefined) headers[SEAL_HEADER] = seal;
      return { topic: rig.topics.events, key: taskId, value, headers };
    };
    const forged = signMessage('outcome', completed(BILLING, 1), intruderKey);
    const forgedSeal = completed(BILLING, 2);
    const unsigned = completed(BILLING, 3);
    const notHolder = signMessage('outcome', completed(INTRUDER, 4), intruderKey);
    const genuine = completed(BILLING, 5);
    const producer = new RecordProducer(createKafka({ brokers: inject('kafkaBrokers'), clientId: uniqueName('raw') }));
    await producer.send([
      record(forged),
      record(forgedSeal, intruderKey),
      record(unsigned),
      record(notHolder),
      record(genuine, billingKey),
    ]);
    await producer.disconnect();

    // One partition per task: once the genuine event is folded, the three before it were read.
    const tracked = await waitFor(
      async () => {
        const answer = await trackerView(taskId);
        return answer?.status === 'FINISH' ? answer : undefined;
      },
      { description: "the tracker to fold the billing agent's COMPLETED", timeoutMs: FLOW_TIMEOUT_MS },
    );
    expect(tracked.timeline.map((entry) => (entry.kind === 'outcome' ? entry.event_id : entry.kind))).toEqual([
      routed?.event_id,
      genuine.event_id,
    ]);
    expect(tracked.status_history.map((change) => [change.status, change.event_id])).toEqual([
      ['CREATE', routed?.event_id],
      ['EXECUTING', routed?.event_id],
      ['FINISH', genuine.event_id],
    ]);
    expect(tracked).toMatchObject({ owner: null, counts: { events: 2, outcomes: { ROUTED: 1, COMPLETED: 1 } } });

    const shown = await waitFor(
      async () => {
        const answer = await gatewayView(taskId);
        return answer?.status === 'FINISH' ? answer : undefined;
      },
      { description: "the gateway to fold the billing agent's COMPLETED", timeoutMs: FLOW_TIMEOUT_MS },
    );
    expect(shown.owner).toBeNull();
    expect(
      shown.events.map((step) => (step.kind === 'outcome' ? [step.agent_id, step.outcome, step.time] : step.kind)),
    ).toEqual([
      ['router', 'ROUTED', routed?.time],
      [BILLING, 'COMPLETED', genuine.time],
    ]);

    for (const [name, service] of [
      ['tracker', tracker],
      ['gateway', gateway],
    ] as const) {
      const metrics = await metricsOf(service);
      const verified = (outcome: string) =>
        sample(metrics, 'baton_signature_verifications_total', { kind: 'outcome', outcome });
      expect([verified('valid'), verified('SENDER_MISMATCH'), verified('SIGNATURE_MISSING')], name).toEqual([3, 2, 1]);
      expect(sample(metrics, 'baton_outcomes_refused_total', { code: 'OUTCOME_NOT_HOLDER' }), name).toBe(1);
      expect(
        service.logs.filter((entry) => entry.event === 'outcome.refused'),
        name,
      ).toEqual([
        expect.objectContaining({
          code: 'OUTCOME_NOT_HOLDER',
          path: '/agent_id',
          task_id: taskId,
          event_id: notHolder.event_id,
          agent_id: INTRUDER,
        }),
      ]);
      const skipped = service.logs
        .filter((entry) => String(entry.event).endsWith('undecodable_event') && entry.task_id === taskId)
        .map((entry) => entry.code);
      expect(skipped, name).toEqual(['SENDER_MISMATCH', 'SENDER_MISMATCH', 'SIGNATURE_MISSING']);
    }
  });
});
