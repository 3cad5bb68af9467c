import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DLQ_HEADERS, deadLetterTopic, type TopicNames } from '@baton/kafka';
import { buildHandoff, type HandoffMessage, type Immutable } from '@baton/protocol';
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
 * A replay cannot launder a refused message: with signatures required and a sender policy, each
 * forgery and a NOT_AUTHORIZED handoff, dead-lettered by the router (its code recorded) or written
 * to the DLQ with a header that lies about why, is refused by the gateway's trust gate whether it
 * is replayed plainly or with a new message_id, into the inbound topic or into the agent's inbox,
 * one by one or by a job; only an operator with the trust-override role gets one through, audited.
 */

const FLOW_TIMEOUT_MS = 30_000;
const PROBE = 'probe_agent';
const TOKENS = { operator: 'replay-ops-token', overrider: 'replay-override-token' } as const;
const TABLE = `version: 1\nagents: [${PROBE}]\nrules: []\ndefault: ${PROBE}\n`;
const POLICY = `
version: 1
external_senders: [user, mallory]
rules:
  - id: users-probe
    senders: [user]
    handoff_types: [STATUS_UPDATE]
    recipients: [${PROBE}]
`;
const IDENTITIES: Record<string, string> = { router: 'router', probe: PROBE, gateway: 'gateway' };

interface Letter {
  kind: string;
  id: string;
  message_id: string;
  /** The code the gate must name. */
  expected: string;
  /** Written with a recorded failure that lies: judged by the message alone. */
  lying: boolean;
}

describe('replaying refused dead letters (signatures required, a sender policy)', () => {
  const keys = new TestSigningKeys();
  const dir = mkdtempSync(join(tmpdir(), 'baton-replay-trust-'));
  const taskId = uniqueName('task');
  let rig: BatonRig;
  let topics: TopicNames;
  let gateway: ServiceProcess;
  let inbox: RecordCollector;
  let events: RecordCollector;
  let dlqTopic: string;
  const letters: Letter[] = [];

  const api = async (method: string, path: string, body?: unknown, token: string = TOKENS.operator) => {
    const response = await fetch(`${gateway.address}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // Answers are checked field by field against the API's documented shapes.
    return { status: response.status, body: (await response.json()) as any };
  };

  const probeHandoff = (sender_id: string, seq: number): Immutable<HandoffMessage> =>
    buildHandoff({
      metadata: { sender_id, recipient_id: PROBE, task_id: taskId },
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: JSON.stringify({ seq }) } },
    });

  beforeAll(async () => {
    keys.issue('user', 'user-1');
    keys.issue('mallory', 'mallory-1');
    keys.issue('router', 'router-1');
    keys.issue(PROBE, 'probe-1');
    keys.issue('gateway', 'gateway-1', ['*']);
    const attacker = new TestSigningKeys();
    attacker.issue('user', 'user-1');
    attacker.issue('intruder', 'intruder-1');
    const signed = keys.sign(probeHandoff('user', 1), 'user');
    const refused = [
      ['tampered', { ...signed, metadata: { ...signed.metadata, priority: 'HIGH' as const } }, 'SIGNATURE_INVALID'],
      ['signed by an unknown key', attacker.sign(probeHandoff('user', 2), 'intruder'), 'SIGNING_KEY_UNKNOWN'],
      ['a random key under a trusted key id', attacker.sign(probeHandoff('user', 3), 'user'), 'SIGNATURE_INVALID'],
      ['claiming another sender', keys.sign(probeHandoff('mallory', 4), 'user'), 'SENDER_MISMATCH'],
      ['unsigned', probeHandoff('user', 5), 'SIGNATURE_MISSING'],
      ['not authorized', keys.sign(probeHandoff('mallory', 6), 'mallory'), 'NOT_AUTHORIZED'],
    ] as const;
    attacker.cleanup();

    writeFileSync(join(dir, 'table.yaml'), TABLE);
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    const policyEnv = { ROUTING_TABLE: join(dir, 'table.yaml'), AUTHORIZATION_POLICY: join(dir, 'policy.yaml') };
    rig = await startBatonRig({
      name: 'replay-trust',
      agents: [],
      routerEnv: policyEnv,
      serviceEnv: (name) => keys.envFor(IDENTITIES[name] ?? name),
    });
    topics = rig.topics;
    dlqTopic = deadLetterTopic(topics.inbound);
    await rig.addProcess('probe', 'test/fixtures/probe-agent/main.ts');
    gateway = await rig.addProcess('gateway', 'services/gateway/src/main.ts', {
      ...policyEnv,
      BATON_API_KEYS: `ops:${TOKENS.operator}:operator,boss:${TOKENS.overrider}:operator+trust-override`,
    });
    inbox = await rig.collect(topics.agentInbox(PROBE));
    events = await rig.collect(topics.events);
    const dlq = await rig.collect(dlqTopic);

    for (const [, message] of refused) await rig.publisher.publish(topics.inbound, message);
    await waitFor(() => dlq.records.filter((record) => record.key === taskId).length === refused.length, {
      description: 'the router dead-lettering the six',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(dlq.records.map((record) => record.headers[DLQ_HEADERS.code])).toEqual(refused.map(([, , code]) => code));
    // The same messages again, their recorded failure a lie: a failure that a replay may fix.
    for (const [, message] of refused) {
      await rig.publisher.publish(dlqTopic, message, {
        extraHeaders: {
          [DLQ_HEADERS.topic]: topics.inbound,
          [DLQ_HEADERS.code]: 'HANDLER_FAILED',
          [DLQ_HEADERS.message]: 'the downstream system was down',
        },
      });
    }
    const listed = await waitFor(
      async () => {
        const page = await api('GET', `/v1/dlq/${dlqTopic}/messages?task_id=${taskId}&limit=100`);
        return page.body.messages?.length === refused.length * 2 ? page.body.messages : undefined;
      },
      { description: "the twelve dead letters in the gateway's view", timeoutMs: FLOW_TIMEOUT_MS },
    );
    for (const summary of listed as { id: string; message_id: string; error_code: string }[]) {
      const index = refused.findIndex(([, message]) => message.metadata.message_id === summary.message_id);
      const [kind, , code] = refused[index]!;
      const lying = summary.error_code === 'HANDLER_FAILED';
      letters.push({ kind, id: summary.id, message_id: summary.message_id, expected: code, lying });
    }
  });

  afterAll(async () => {
    const exitCodes = await rig?.stop();
    keys.cleanup();
    rmSync(dir, { recursive: true, force: true });
    expectCleanExits(exitCodes);
  });

  it('refuses every one, plainly or with a new message_id, into the inbound topic or the inbox, naming why', async () => {
    const answers: string[] = [];
    const expected: string[] = [];
    for (const letter of letters) {
      for (const target of [topics.inbound, topics.agentInbox(PROBE)]) {
        // A valid signature whose sender the policy refuses, said to have failed downstream, is the
        // router's to judge when it goes back to the inbound topic; into the inbox, the gate judges it.
        if (letter.lying && letter.expected === 'NOT_AUTHORIZED' && target === topics.inbound) continue;
        for (const newMessageId of [false, true]) {
          const answer = await api('POST', `/v1/dlq/${dlqTopic}/messages/${letter.id}/replay`, {
            reason: 'retry',
            target_topic: target,
            new_message_id: newMessageId,
          });
          const what = `${letter.kind}${letter.lying ? ' (lying header)' : ''} to ${target}, new id ${newMessageId}`;
          answers.push(
            `${what}: ${answer.status} ${answer.body.error?.code} ${/\((\w+)\)/.exec(answer.body.error?.message)?.[1]}`,
          );
          expected.push(`${what}: 409 REPLAY_TRUST_REFUSED ${letter.expected}`);
        }
      }
    }
    expect(answers).toEqual(expected);
  });

  it('counts the refused items of a replay job apart, each naming why, and goes on to the end', async () => {
    const planned = await api('POST', '/v1/replays', {
      dlq_topic: dlqTopic,
      filter: { task_id: taskId },
      reason: 'bulk retry',
      target_topic: topics.agentInbox(PROBE),
      new_message_id: true,
      rate_per_second: 100,
    });
    expect(planned.status).toBe(201);
    await api('POST', `/v1/replays/${planned.body.job_id}/start`);
    const done = await waitFor(
      async () => {
        const job = await api('GET', `/v1/replays/${planned.body.job_id}`);
        return job.body.state === 'completed' ? job.body : undefined;
      },
      { description: 'the job to complete', timeoutMs: FLOW_TIMEOUT_MS },
    );
    expect(done.progress).toEqual({ total: 12, replayed: 0, refused: 12, failed: 0, remaining: 0 });
    const reasons = Object.fromEntries(
      done.errors.map((error: { id: string; reason_code: string }) => [error.id, error.reason_code]),
    );
    expect(reasons).toEqual(Object.fromEntries(letters.map((letter) => [letter.id, letter.expected])));
    expect(new Set(done.errors.map((error: { code: string }) => error.code))).toEqual(
      new Set(['REPLAY_TRUST_REFUSED']),
    );
  });

  it('lets override_trust through only with the trust-override role, audited; nothing refused was processed', async () => {
    const tampered = letters.find((letter) => letter.kind === 'tampered' && !letter.lying)!;
    const body = {
      reason: 'incident 42: the tampering was our own proxy',
      target_topic: topics.agentInbox(PROBE),
      new_message_id: true,
      override_trust: true,
    };
    const letterPath = `/v1/dlq/${dlqTopic}/messages/${tampered.id}`;
    const path = `${letterPath}/replay`;
    const forbidden = await api('POST', path, body);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({ code: 'FORBIDDEN', path: '/override_trust' });

    const overridden = await api('POST', path, body, TOKENS.overrider);
    expect(overridden.status).toBe(200);
    const messageId = overridden.body.message_id as string;
    await waitFor(
      async () =>
        (await rig.outcomes(events, taskId)).some(
          (event) => event.message_id === messageId && event.outcome === 'COMPLETED',
        ),
      { description: 'the overridden replay processed', timeoutMs: FLOW_TIMEOUT_MS },
    );
    const detail = await waitFor(
      async () => {
        const answer = await api('GET', letterPath);
        return answer.body.replays?.length === 1 ? answer.body : undefined;
      },
      { description: 'the override in the audit trail', timeoutMs: FLOW_TIMEOUT_MS },
    );
    expect(detail.replays[0]).toMatchObject({
      actor: 'boss',
      action: 'replay',
      reason: body.reason,
      new_message_id: true,
      trust_overridden: expect.stringMatching(/^replay refused \(SIGNATURE_INVALID\): /),
    });
    // The override was written after every refusal, to the same partition of the inbox: had any
    // refused replay been written there, it would be before it.
    expect(inbox.records.filter((record) => record.key === taskId).map((record) => record.headers.ce_id)).toEqual([
      messageId,
    ]);
    const processed = (await rig.outcomes(events, taskId)).filter((event) => event.agent_id === PROBE);
    expect(processed.map((event) => event.message_id)).toEqual([messageId]);
    for (const letter of letters.filter((each) => each !== tampered)) {
      expect((await api('GET', `/v1/dlq/${dlqTopic}/messages/${letter.id}`)).body.replays).toEqual([]);
    }
  });
});
