import { createRequire } from 'node:module';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { createKafka, RecordProducer, type TopicNames } from '@baton/kafka';
import { buildHandoff, type HandoffMessage } from '@baton/protocol';
import type { HandoffPublisher } from '@baton/runtime';
import type { HandoffCodec } from '@baton/wire';
import {
  errorAnswer,
  routeNotFound,
  startBatonRig,
  startServiceProcess,
  uniqueName,
  waitFor,
  type BatonRig,
  type RecordCollector,
  type ServiceProcess,
} from './helpers/index.js';

const require = createRequire(import.meta.url);
const brokers = inject('kafkaBrokers');
const seed = (): HandoffMessage =>
  structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as HandoffMessage;

// A table without a default, so a handoff for nobody has no route.
const TABLE = `version: 1
agents: [technical_support_agent_pool, sales_agent]
rules:
  - id: sales
    match: { handoff_type: TASK_TRANSFER, issue_category: SALES }
    target: sales_agent
`;

describe('the router as its own process', () => {
  let rig: BatonRig;
  let topics: TopicNames;
  let router: ServiceProcess;
  let codec: HandoffCodec;
  let publisher: HandoffPublisher;
  let support: RecordCollector;
  let sales: RecordCollector;
  let dlq: RecordCollector;
  let events: RecordCollector;

  let tableDir: string | undefined;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-router-test-'));
    tableDir = dir;
    writeFileSync(join(dir, 'table.yaml'), TABLE);
    rig = await startBatonRig({ name: 'rt', agents: [], routerEnv: { ROUTING_TABLE: join(dir, 'table.yaml') } });
    ({ topics, codec, publisher } = rig);
    router = rig.services.router as ServiceProcess;
    support = await rig.collect(topics.agentInbox('technical_support_agent_pool'));
    sales = await rig.collect(topics.agentInbox('sales_agent'));
    dlq = await rig.collect(`${topics.inbound}.dlq`);
    events = await rig.collect(topics.events);
  });

  afterAll(async () => {
    if (tableDir !== undefined) rmSync(tableDir, { recursive: true, force: true });
    expect(await rig?.stop()).toEqual({ router: 0 });
  });

  it('warns once at start that, without AUTHORIZATION_POLICY, no sender policy is enforced', () => {
    expect(router.logs.filter((line) => String(line.event).startsWith('authorization.'))).toMatchObject([
      { event: 'authorization.disabled', level: 'warn' },
    ]);
  });

  it('dispatches the reference escalation to its recipient, byte for byte, with the decision in the headers', async () => {
    const message = seed();
    message.metadata.expiration_time = '2999-01-01T00:00:00.000Z';
    const published = await publisher.publish(topics.inbound, message as never);
    expect(published.topic).toBe(topics.inbound);
    const record = await waitFor(
      () => support.records.find((entry) => entry.headers.ce_id === message.metadata.message_id),
      {
        description: 'the escalation in technical support inbox',
      },
    );
    expect(record.key).toBe('task-abc-456');
    expect(record.headers).toMatchObject({
      ce_specversion: '1.0',
      ce_type: 'ESCALATION',
      ce_source: 'customer_service_agent_001',
      ce_subject: 'task-abc-456',
      correlation_id: 'flow-xyz-123',
      'baton.route.rule': 'recipient',
      'baton.route.target': 'technical_support_agent_pool',
    });
    expect(await codec.decode(record.value as Buffer)).toStrictEqual(message);
    const event = await waitFor(
      async () =>
        (await rig.outcomes(events, message.metadata.task_id)).find(
          (outcome) => outcome.message_id === message.metadata.message_id,
        ),
      { description: 'the ROUTED outcome event' },
    );
    expect(event).toMatchObject({
      outcome: 'ROUTED',
      agent_id: 'router',
      target: 'technical_support_agent_pool',
      task_id: 'task-abc-456',
    });
  });

  it('routes by rule and takes a message published three times once', async () => {
    const message = buildHandoff({
      metadata: { sender_id: 'triage_agent', recipient_id: 'any_salesperson', task_id: uniqueName('task') },
      payload: { handoff_type: 'TASK_TRANSFER', data: { issue_category: 'SALES', task_summary: 'Wants a mesh kit.' } },
    });
    for (let i = 0; i < 3; i += 1) await publisher.publish(topics.inbound, message);
    const mine = () => sales.records.filter((entry) => entry.headers.ce_id === message.metadata.message_id);
    await waitFor(() => mine().length === 1, { description: 'the transfer in the sales inbox' });
    // A later message of the same task has passed the duplicates: had they been routed, they would be here.
    const later = buildHandoff({ ...message, metadata: { ...message.metadata, message_id: undefined } } as never);
    await publisher.publish(topics.inbound, later);
    await waitFor(() => sales.records.some((entry) => entry.headers.ce_id === later.metadata.message_id), {
      description: 'the later message',
    });
    expect(mine()).toHaveLength(1);
    expect(mine()[0]?.headers['baton.route.rule']).toBe('sales');
  });

  it('says which recipients a handoff named got nothing: an unknown one among several, and a known one the rule passed over', async () => {
    const message = buildHandoff({
      metadata: {
        sender_id: 'triage_agent',
        recipient_id: ['technical_support_agent_pool', 'nobody'],
        task_id: uniqueName('task'),
      },
      payload: { handoff_type: 'TASK_TRANSFER', data: { issue_category: 'SALES', task_summary: 'Wants a mesh kit.' } },
    });
    await publisher.publish(topics.inbound, message);
    const outcomes = await waitFor(
      async () => {
        const found = await rig.outcomes(events, message.metadata.task_id);
        return found.length >= 2 ? found : undefined;
      },
      { description: 'the ROUTED and NOT_DELIVERED events' },
    );
    expect(outcomes.map(({ outcome, agent_id, target, detail }) => ({ outcome, agent_id, target, detail }))).toEqual([
      { outcome: 'ROUTED', agent_id: 'router', target: 'sales_agent', detail: 'rule sales' },
      {
        outcome: 'NOT_DELIVERED',
        agent_id: 'router',
        target: 'technical_support_agent_pool,nobody',
        detail:
          'not delivered to technical_support_agent_pool: not chosen; nobody: no such agent in the routing table; ' +
          'rule sales sent the handoff to sales_agent',
      },
    ]);
    await waitFor(() => sales.records.some((entry) => entry.headers.ce_id === message.metadata.message_id), {
      description: 'the transfer in the sales inbox',
    });
    expect(support.records.some((entry) => entry.headers.ce_id === message.metadata.message_id)).toBe(false);
  });

  it('dead-letters what it cannot route or read, each with its code and original bytes, and keeps running', async () => {
    const producer = new RecordProducer(createKafka({ brokers, clientId: uniqueName('raw') }));
    const garbage = Buffer.from('not avro at all');
    const unroutable = buildHandoff({
      metadata: { sender_id: 'x', recipient_id: 'nobody_agent', task_id: uniqueName('task') },
      payload: { handoff_type: 'NOTIFICATION', data: { event_type: 'PING', message: 'hello' } },
    });
    const invalid = seed();
    delete (invalid.payload.data as { customer_info: { name?: string } }).customer_info.name;
    invalid.metadata.message_id = '0f0e0d0c-0b0a-4908-8706-050403020100';
    const unknownType = seed();
    (unknownType.payload as { handoff_type: string }).handoff_type = 'TELEPORT';
    unknownType.metadata.message_id = '1f0e0d0c-0b0a-4908-8706-050403020101';
    const expired = seed();
    expired.metadata.message_id = '2f0e0d0c-0b0a-4908-8706-050403020102';
    expired.metadata.expiration_time = '2020-01-01T00:00:00.000Z';
    const cases: [string, Buffer][] = [
      ['WIRE_FORMAT_INVALID', garbage],
      ['NO_ROUTE', codec.encode(unroutable)],
      ['VALIDATION_FAILED', codec.encode(invalid as never)],
      ['UNKNOWN_HANDOFF_TYPE', codec.encode(unknownType as never)],
      ['HANDOFF_EXPIRED', codec.encode(expired as never)],
    ];
    await producer.send(
      cases.map(([code, value]) => ({ topic: topics.inbound, key: `dlq-${code}`, value, headers: { case: code } })),
    );
    await producer.disconnect();
    await waitFor(() => cases.every(([code]) => dlq.records.some((entry) => entry.headers.case === code)), {
      description: 'five dead letters',
    });
    for (const [code, value] of cases) {
      const letter = dlq.records.find((entry) => entry.headers.case === code);
      expect(letter?.headers['baton.dlq.error.code'], code).toBe(code);
      expect(letter?.key).toBe(`dlq-${code}`);
      expect(Buffer.compare(letter?.value as Buffer, value), code).toBe(0);
      expect(letter?.headers['__connect.errors.topic']).toBe(topics.inbound);
      expect(letter?.headers['baton.dlq.consumer.group']).toBe(`${topics.prefix}.router`);
    }
    expect(dlq.records.find((entry) => entry.headers.case === 'NO_ROUTE')?.headers['__connect.errors.stage']).toBe(
      'route',
    );
    const ready = await fetch(`${router.address}/readyz`);
    expect(ready.status).toBe(200);
    expect(await errorAnswer(`${router.address}/v1/nowhere`)).toEqual(routeNotFound('GET', '/v1/nowhere'));
    const metrics = await (await fetch(`${router.address}/metrics`)).text();
    expect(metrics).toMatch(/baton_dead_letters_total\{[^}]*reason="NO_ROUTE"[^}]*\} 1/);
  });
});

describe('the router’s start-up check of its routing table', () => {
  it('refuses to start on an unreachable rule and names it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-router-table-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(
      join(dir, 'table.yaml'),
      `version: 1
agents: [sales_agent, triage_agent]
rules:
  - id: everything
    match: {}
    target: triage_agent
  - id: sales
    match: { handoff_type: TASK_TRANSFER }
    target: sales_agent
`,
    );
    const started = startServiceProcess('services/router/src/main.ts', {
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
      SCHEMA_REGISTRY_URL: inject('schemaRegistryUrl'),
      BATON_TOPIC_PREFIX: uniqueName('bad-table'),
      ROUTING_TABLE: join(dir, 'table.yaml'),
    });
    await expect(started).rejects.toThrow(
      /exited with 1 before starting[\s\S]*CONFIG_INVALID[\s\S]*rule 1 \(\\?"sales\\?"\)/,
    );
  });
});
