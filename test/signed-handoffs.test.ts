import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKafka, DLQ_HEADERS, deadLetterTopic, RecordProducer, type TopicNames } from '@baton/kafka';
import {
  digestOf,
  SEAL_HEADER,
  signMessage,
  TrustStore,
  VerificationSeals,
  VOUCH_HEADER,
  type SigningKey,
} from '@baton/message-signing';
import { buildHandoff, buildLifecycleMessage, type HandoffMessage, type Immutable } from '@baton/protocol';
import { handoffHeaders } from '@baton/runtime';
import { EventsCodec, SchemaRegistryClient } from '@baton/wire';
import {
  TestSigningKeys,
  startBatonRig,
  uniqueName,
  waitFor,
  type BatonRig,
  type RecordCollector,
  type ServiceProcess,
  expectCleanExits,
} from './helpers/index.js';

/**
 * Baton with every service requiring signatures (BATON_SIGNATURES=required), each signing with a
 * key of its own: the reference escalation, signed by a Java program with the JDK alone, and the
 * customer-service refund complete; forged, tampered, unsigned and wrong-sender messages are dead-lettered
 * with their codes by the router and by an agent; a key rotation in the middle of a run loses nothing.
 */

const require = createRequire(import.meta.url);
const FLOW_TIMEOUT_MS = 30_000;
const SEED_SENDER = 'customer_service_agent_001';
const USER = 'user';
const TRIAGE = 'triage_agent';
const ISSUES = 'issues_and_repairs_agent';
const LEVEL3 = 'level3_network_expert_agent_pool';

/** Each process's signing identity: the agent id it sends as. */
const IDENTITIES: Record<string, string> = {
  router: 'router',
  'technical-support-agent': 'technical_support_agent_pool',
  'level3-network-expert-agent': LEVEL3,
  'triage-agent': TRIAGE,
  'triage-agent-rotated': TRIAGE,
  'issues-and-repairs-agent': ISSUES,
};

function seedEscalation(): HandoffMessage {
  const message = structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as HandoffMessage;
  message.metadata.message_id = randomUUID();
  delete message.metadata.expiration_time;
  return message;
}

function userRequest(taskId: string, summary: string): Immutable<HandoffMessage> {
  return buildHandoff({
    metadata: { sender_id: USER, recipient_id: TRIAGE, task_id: taskId },
    payload: {
      handoff_type: 'TASK_TRANSFER',
      data: {
        issue_category: 'UNCLASSIFIED',
        task_summary: summary,
        customer_info: { user_id: 'cust-5f1d', name: 'Wile E. Coyote' },
      },
    },
  });
}

const keyIdOf = (message: Immutable<HandoffMessage>) => message.metadata.signature?.split(':')[1];

describe('signed handoffs (BATON_SIGNATURES=required)', () => {
  const keys = new TestSigningKeys();
  let firstUserKey: SigningKey;
  let rig: BatonRig;
  let topics: TopicNames;
  let inboundDlq: RecordCollector;
  let level3Inbox: RecordCollector;
  let events: RecordCollector;
  let ledger: RecordCollector;
  let replies: RecordCollector;

  const outcomeOf = (message: Immutable<HandoffMessage>, agentId: string) =>
    waitFor(
      async () =>
        (await rig.outcomes(events, message.metadata.task_id)).find(
          (event) => event.message_id === message.metadata.message_id && event.agent_id === agentId,
        ),
      { description: `${agentId}'s outcome of ${message.metadata.message_id}`, timeoutMs: FLOW_TIMEOUT_MS },
    );

  const letterCodes = (collector: RecordCollector, taskId: string) =>
    collector.records.filter((record) => record.key === taskId).map((record) => record.headers[DLQ_HEADERS.code]);

  beforeAll(async () => {
    keys.issue(SEED_SENDER, 'customer-service-2026-11');
    firstUserKey = keys.issue(USER, 'chat-frontend-2026-11');
    for (const [name, identity] of Object.entries(IDENTITIES)) {
      if (!name.endsWith('-rotated')) keys.issue(identity, `${name}-2026-11`);
    }
    rig = await startBatonRig({
      name: 'signed',
      agents: ['technical-support-agent', 'level3-network-expert-agent', 'triage-agent', 'issues-and-repairs-agent'],
      serviceEnv: (name) => keys.envFor(IDENTITIES[name] ?? name),
    });
    topics = rig.topics;
    inboundDlq = await rig.collect(deadLetterTopic(topics.inbound));
    level3Inbox = await rig.collect(topics.agentInbox(LEVEL3));
    events = await rig.collect(topics.events);
    ledger = await rig.collect(topics.ledger);
    replies = await rig.collect(topics.userReplies);
  });

  afterAll(async () => {
    const exitCodes = await rig?.stop();
    keys.cleanup();
    expectCleanExits(exitCodes);
  });

  it('completes the reference escalation signed in Java with the JDK’s Ed25519, each hop signed by its agent', async () => {
    const message = seedEscalation();
    const file = join(keys.dir, 'reference-escalation.json');
    writeFileSync(file, JSON.stringify(message, null, 2));
    // The private key goes on stdin: never on a command line.
    const signature = execFileSync(
      'java',
      ['test/fixtures/signing/SignHandoff.java', file, 'customer-service-2026-11'],
      {
        input: keys.pemOf(SEED_SENDER),
        encoding: 'utf8',
      },
    );
    expect(signature).toMatch(/^ed25519:customer-service-2026-11:[A-Za-z0-9_-]{86}$/);
    // The same message, signed by Baton's own code, gets the same signature: Ed25519 is deterministic.
    expect(keys.sign(message, SEED_SENDER).metadata.signature).toBe(signature);
    await rig.publisher.publish(topics.inbound, { ...message, metadata: { ...message.metadata, signature } });

    const escalated = await waitFor(async () => (await rig.handoffs(level3Inbox, 'task-abc-456'))[0], {
      description: 'the escalation in the level-3 inbox',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(keyIdOf(escalated)).toBe('technical-support-agent-2026-11');
    expect(await outcomeOf(escalated, LEVEL3)).toMatchObject({ outcome: 'COMPLETED' });
    const reply = await waitFor(
      async () => (await rig.handoffs(replies, 'task-abc-456')).find((r) => r.metadata.sender_id === LEVEL3),
      { description: "level 3's reply", timeoutMs: FLOW_TIMEOUT_MS },
    );
    expect(keyIdOf(reply)).toBe('level3-network-expert-agent-2026-11');
    expect(letterCodes(inboundDlq, 'task-abc-456')).toEqual([]);
  });

  it('takes a handoff sealed in Java with the JDK alone from docs/security.md, and dead-letters a changed seal or value', async () => {
    const taskId = uniqueName('task');
    const request = userRequest(taskId, 'Thanks!');
    // The record value exactly as Kafka carries it: Baton's unsigned handoff codec, wire format and all.
    const value = rig.codec.encode(request);
    const valueFile = join(keys.dir, `${taskId}.value`);
    writeFileSync(valueFile, value);
    // This rig's trust store marks no handoff_reader (so every writer signs, as the other tests
    // assert): the sender seals for the router's own key, which the router checks all the same.
    const trustStore = new TrustStore({ file: keys.trustStoreFile });
    const routerKeys = trustStore.keysSigningFor('router');
    const entries = (
      JSON.parse(readFileSync(keys.trustStoreFile, 'utf8')) as { keys: { key_id: string; public_key: string }[] }
    ).keys;
    const recipients = routerKeys.map((key) => {
      const file = join(keys.dir, `${key.keyId}.public.pem`);
      writeFileSync(file, entries.find((entry) => entry.key_id === key.keyId)!.public_key);
      return `${key.keyId}=${file}`;
    });
    // The private key goes on stdin: never on a command line.
    const seal = execFileSync(
      'java',
      ['test/fixtures/signing/SealRecord.java', valueFile, firstUserKey.keyId, ...recipients],
      { input: keys.pemOf(USER), encoding: 'utf8' },
    );
    expect(seal).toMatch(/^x25519-blake2b-128:chat-frontend-2026-11:router-2026-11=[A-Za-z0-9_-]{22}$/);
    // Baton's own seal of the same bytes is the same: X25519 and BLAKE2b are deterministic.
    expect(new VerificationSeals(firstUserKey, trustStore).sealFor(digestOf(value), routerKeys)).toBe(seal);

    // One character of the MAC changed; one byte of the value changed (the summary's "!" made "?").
    const macAt = seal.indexOf('=') + 1;
    const changedSeal = `${seal.slice(0, macAt)}${seal[macAt] === 'A' ? 'B' : 'A'}${seal.slice(macAt + 1)}`;
    const changedValue = Buffer.from(value);
    changedValue[changedValue.indexOf('Thanks!') + 'Thanks'.length] = '?'.charCodeAt(0);
    const record = (bytes: Buffer, header: string) => ({
      topic: topics.inbound,
      key: taskId,
      value: bytes,
      headers: { ...handoffHeaders(request), [SEAL_HEADER]: header },
    });
    const producer = new RecordProducer(createKafka({ brokers: inject('kafkaBrokers'), clientId: uniqueName('raw') }));
    try {
      // Same task, same partition: once the sealed one is processed, the two before it have been.
      await producer.send([record(value, changedSeal), record(changedValue, seal), record(value, seal)]);
    } finally {
      await producer.disconnect();
    }
    expect(await outcomeOf(request, TRIAGE)).toMatchObject({ outcome: 'COMPLETED' });
    await waitFor(() => letterCodes(inboundDlq, taskId).length === 2, {
      description: 'the dead letters of the changed seal and the changed value',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(letterCodes(inboundDlq, taskId)).toEqual(['SIGNATURE_INVALID', 'SIGNATURE_INVALID']);
  });

  it('completes the customer-service refund: the user, triage and issues and repairs each signing', async () => {
    const taskId = uniqueName('task');
    const request = keys.sign(
      userRequest(taskId, 'A pair of shoes I bought, they arrived broken; I want a refund'),
      USER,
    );
    await rig.publisher.publish(topics.inbound, request);
    const transfer = await waitFor(
      async () => (await rig.outcomes(events, taskId)).find((event) => event.agent_id === ISSUES),
      { description: 'the outcome of issues and repairs', timeoutMs: FLOW_TIMEOUT_MS },
    );
    expect(transfer).toMatchObject({ outcome: 'COMPLETED', issue_category: 'REFUND' });
    await waitFor(() => ledger.records.some((record) => record.key === taskId), {
      description: 'the refund in the ledger',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(letterCodes(inboundDlq, taskId)).toEqual([]);
  });

  it('dead-letters forged, tampered, unsigned and wrong-sender messages with their codes, unprocessed', async () => {
    const taskId = uniqueName('task');
    const request = () => userRequest(taskId, 'Thanks!');
    const attacker = new TestSigningKeys();
    attacker.issue(USER, 'chat-frontend-2026-11');
    attacker.issue('intruder', 'intruder-1');
    const signed = keys.sign(request(), USER);
    const tampered = { ...signed, metadata: { ...signed.metadata, priority: 'HIGH' as const } };
    const wrongSender = keys.sign({ ...request(), metadata: { ...request().metadata, sender_id: ISSUES } }, USER);
    const bad = [
      ['unsigned', request(), 'SIGNATURE_MISSING'],
      ['tampered', tampered, 'SIGNATURE_INVALID'],
      ['forged under a trusted key id', attacker.sign(request(), USER), 'SIGNATURE_INVALID'],
      ['signed by an unknown key', attacker.sign(request(), 'intruder'), 'SIGNING_KEY_UNKNOWN'],
      ['claiming another sender', wrongSender, 'SENDER_MISMATCH'],
    ] as const;
    attacker.cleanup();
    for (const [, message] of bad) await rig.publisher.publish(topics.inbound, message);
    // Same task, same partition: once this one is processed, every message before it has been.
    const valid = keys.sign(request(), USER);
    await rig.publisher.publish(topics.inbound, valid);
    expect(await outcomeOf(valid, TRIAGE)).toMatchObject({ outcome: 'COMPLETED' });
    await waitFor(() => letterCodes(inboundDlq, taskId).length === bad.length, {
      description: 'the five dead letters',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(letterCodes(inboundDlq, taskId)).toEqual(bad.map(([, , code]) => code));
    const handled = (await rig.outcomes(events, taskId)).filter((event) => event.agent_id === TRIAGE);
    expect(handled.map((event) => event.message_id)).toEqual([valid.metadata.message_id]);
  });

  it('verifies where a message enters an agent too: a message written straight to an inbox is checked', async () => {
    const agentDlq = await rig.collect(deadLetterTopic(topics.agentInbox(LEVEL3)));
    const message = seedEscalation();
    message.metadata.task_id = uniqueName('task');
    message.metadata.recipient_id = LEVEL3;
    await rig.publisher.publish(topics.agentInbox(LEVEL3), message);
    await waitFor(() => letterCodes(agentDlq, message.metadata.task_id).length === 1, {
      description: "the level-3 agent's dead letter",
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(letterCodes(agentDlq, message.metadata.task_id)).toEqual(['SIGNATURE_MISSING']);
  });

  it('takes a handoff on the router’s seal without verifying it again, and a copied seal vouches for no other bytes', async () => {
    const verifications = async (outcome: string) => {
      const text = await (await fetch(`${rig.services['level3-network-expert-agent']!.address}/metrics`)).text();
      const line = text
        .split('\n')
        .find((row) => row.startsWith(`baton_signature_verifications_total{kind="handoff",outcome="${outcome}"`));
      return line === undefined ? 0 : Number(line.split(' ').pop());
    };
    const sealedBefore = await verifications('sealed');
    const message = keys.sign(
      { ...seedEscalation(), metadata: { ...seedEscalation().metadata, task_id: uniqueName('task') } },
      SEED_SENDER,
    );
    await rig.publisher.publish(topics.inbound, message);
    const taskId = message.metadata.task_id;
    const escalated = await waitFor(async () => (await rig.handoffs(level3Inbox, taskId))[0], {
      description: 'the escalation in the level-3 inbox',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(await outcomeOf(escalated, LEVEL3)).toMatchObject({ outcome: 'COMPLETED' });
    const sealedRecord = level3Inbox.records.find((record) => record.key === taskId);
    expect(sealedRecord?.headers[VOUCH_HEADER]).toMatch(
      /^x25519-blake2b-128:router-2026-11:level3-network-expert-agent-2026-11=[A-Za-z0-9_-]{22}$/,
    );
    expect(await verifications('sealed')).toBeGreaterThan(sealedBefore);

    // The seal copied onto a changed message, written straight into the inbox: the agent verifies it, and refuses it.
    const agentDlq = await rig.collect(deadLetterTopic(topics.agentInbox(LEVEL3)));
    const forgedTask = uniqueName('task');
    const tampered = {
      ...escalated,
      metadata: { ...escalated.metadata, task_id: forgedTask, message_id: uniqueName('m') },
    };
    await rig.publisher.publish(topics.agentInbox(LEVEL3), tampered, {
      extraHeaders: { [VOUCH_HEADER]: sealedRecord!.headers[VOUCH_HEADER]! },
    });
    await waitFor(() => letterCodes(agentDlq, forgedTask).length === 1, {
      description: "the level-3 agent's dead letter of the tampered copy",
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(letterCodes(agentDlq, forgedTask)).toEqual(['SIGNATURE_INVALID']);
  });

  it('verifies a negotiation where it enters an agent: a forged or unsigned HandoffRequest on its control topic is dead-lettered', async () => {
    const controlDlq = await rig.collect(deadLetterTopic(topics.agentControl(LEVEL3)));
    const lifecycle = (await EventsCodec.create(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') })))
      .lifecycle;
    const attacker = new TestSigningKeys();
    try {
      const request = (taskId: string) =>
        buildLifecycleMessage('HandoffRequest', {
          sender_id: 'technical_support_agent_pool',
          receiver_id: LEVEL3,
          task_id: taskId,
          payload: {
            reason: 'needs tier 3',
            desired_agent_type: 'networkexpert',
            priority: 'HIGH',
            initial_context_summary: 'DHCP fault',
          },
        });
      const unsignedTask = uniqueName('task');
      const forgedTask = uniqueName('task');
      // A key the trust store does not hold, under a key id of its own.
      const intruderKey = attacker.issue('technical_support_agent_pool', 'intruder-2');
      const producer = new RecordProducer(
        createKafka({ brokers: inject('kafkaBrokers'), clientId: uniqueName('raw') }),
      );
      await producer.send(
        [request(unsignedTask), signMessage('lifecycle', request(forgedTask), intruderKey)].map((message) => ({
          topic: topics.agentControl(LEVEL3),
          key: message.task_id as string,
          value: lifecycle.encode(message),
        })),
      );
      await producer.disconnect();
      await waitFor(
        () => letterCodes(controlDlq, unsignedTask).length + letterCodes(controlDlq, forgedTask).length === 2,
        {
          description: "the level-3 agent's control dead letters",
          timeoutMs: FLOW_TIMEOUT_MS,
        },
      );
      expect([letterCodes(controlDlq, unsignedTask), letterCodes(controlDlq, forgedTask)]).toEqual([
        ['SIGNATURE_MISSING'],
        ['SIGNING_KEY_UNKNOWN'],
      ]);
    } finally {
      attacker.cleanup();
    }
  });

  it('rotates the user key and the triage agent key in the middle of a run, losing nothing', async () => {
    const requests: Immutable<HandoffMessage>[] = [];
    const publish = async (count: number) => {
      for (let index = 0; index < count; index += 1) {
        const request = keys.sign(userRequest(uniqueName('task'), 'Thanks!'), USER);
        requests.push(request);
        await rig.publisher.publish(topics.inbound, request);
      }
    };
    await publish(20);
    // The new keys join the trust store first, then the senders switch to them; the agent rolls as
    // Kubernetes rolls a Deployment: the new instance starts before the old one stops.
    keys.issue(USER, 'chat-frontend-2026-12');
    keys.issue(TRIAGE, 'triage-agent-2026-12');
    await Promise.all([rig.addInstance('triage-agent', 'triage-agent-rotated'), publish(20)]);
    const old = rig.services['triage-agent'] as ServiceProcess;
    delete rig.services['triage-agent'];
    const [code] = await Promise.all([old.stop('SIGTERM'), publish(20)]);
    expect(code).toBe(0);
    await publish(5);
    const outcomes = await Promise.all(requests.map((request) => outcomeOf(request, TRIAGE)));
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(requests.map(() => 'COMPLETED'));
    expect(new Set(requests.map(keyIdOf))).toEqual(new Set(['chat-frontend-2026-11', 'chat-frontend-2026-12']));
    const lastReply = await waitFor(
      async () =>
        (await rig.handoffs(replies, requests[requests.length - 1]!.metadata.task_id)).find(
          (reply) => reply.metadata.sender_id === TRIAGE,
        ),
      { description: "triage's reply to the last request", timeoutMs: FLOW_TIMEOUT_MS },
    );
    expect(keyIdOf(lastReply)).toBe('triage-agent-2026-12');
    for (const request of requests) expect(letterCodes(inboundDlq, request.metadata.task_id)).toEqual([]);

    // Once the old key is removed, what it signs is refused: the router sees the file changed
    // within its check interval, so a message signed with it is sent until one is refused.
    keys.remove('chat-frontend-2026-11');
    const late = uniqueName('late-task');
    const refused = await waitFor(
      async () => {
        await rig.publisher.publish(topics.inbound, signMessage('handoff', userRequest(late, 'Thanks!'), firstUserKey));
        return inboundDlq.records.find((record) => record.key === late);
      },
      { description: 'a message signed with the removed key refused', timeoutMs: FLOW_TIMEOUT_MS, intervalMs: 1_000 },
    );
    expect(refused.headers[DLQ_HEADERS.message]).toBe('key id chat-frontend-2026-11 is not in the trust store');
  });
});
