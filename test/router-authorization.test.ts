import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TopicNames } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import type { HandoffPublisher } from '@baton/runtime';
import {
  startBatonRig,
  startServiceProcess,
  uniqueName,
  waitFor,
  type BatonRig,
  type RecordCollector,
  type ServiceProcess,
} from './helpers/index.js';

const TABLE = `version: 1
agents: [triage_agent, sales_agent, human_agent]
rules:
  - id: sales
    match: { handoff_type: TASK_TRANSFER, issue_category: SALES }
    target: sales_agent
default: triage_agent
`;

const POLICY = `version: 1
external_senders: [customer_portal]
pools:
  frontline: [triage_agent, customer_portal]
rules:
  - id: frontline-transfers
    senders: [frontline]
    handoff_types: [TASK_TRANSFER]
    recipients: [sales_agent, triage_agent]
`;

/** The folders writeFiles made, removed when the file's tests end. */
const fileDirs: string[] = [];
afterAll(() => {
  for (const dir of fileDirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (name to text) into a folder of their own and returns each one's path. */
function writeFiles(files: Record<string, string>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-router-authz-'));
  fileDirs.push(dir);
  return Object.fromEntries(
    Object.entries(files).map(([name, text]) => {
      writeFileSync(join(dir, name), text);
      return [name, join(dir, name)];
    }),
  );
}

function saleFrom(sender_id: string) {
  return buildHandoff({
    metadata: { sender_id, recipient_id: 'any_salesperson', task_id: uniqueName('task') },
    payload: { handoff_type: 'TASK_TRANSFER', data: { issue_category: 'SALES', task_summary: 'Wants a mesh kit.' } },
  });
}

describe('the router enforcing a sender policy', () => {
  let rig: BatonRig;
  let topics: TopicNames;
  let router: ServiceProcess;
  let publisher: HandoffPublisher;
  let sales: RecordCollector;
  let dlq: RecordCollector;

  beforeAll(async () => {
    const paths = writeFiles({ 'table.yaml': TABLE, 'policy.yaml': POLICY });
    rig = await startBatonRig({
      name: 'authz',
      agents: [],
      routerEnv: { ROUTING_TABLE: paths['table.yaml']!, AUTHORIZATION_POLICY: paths['policy.yaml']! },
    });
    ({ topics, publisher } = rig);
    router = rig.services.router as ServiceProcess;
    sales = await rig.collect(topics.agentInbox('sales_agent'));
    dlq = await rig.collect(`${topics.inbound}.dlq`);
  });

  afterAll(async () => {
    expect(await rig?.stop()).toEqual({ router: 0 });
  });

  it('says at start which policy it enforces', () => {
    expect(router.logs.filter((line) => String(line.event).startsWith('authorization.'))).toMatchObject([
      { event: 'authorization.loaded', rules: 1, source: expect.stringMatching(/policy\.yaml$/) },
    ]);
  });

  it('dispatches a handoff from a sender the policy allows (a pool member) to the agent inbox', async () => {
    const message = saleFrom('customer_portal');
    await publisher.publish(topics.inbound, message);
    const record = await waitFor(
      () => sales.records.find((entry) => entry.headers.ce_id === message.metadata.message_id),
      { description: 'the allowed transfer in the sales inbox' },
    );
    expect(record.headers).toMatchObject({ 'baton.route.rule': 'sales', 'baton.route.target': 'sales_agent' });
  });

  it('dead-letters a handoff from a sender the policy does not allow with NOT_AUTHORIZED, and counts it', async () => {
    const message = saleFrom('human_agent');
    await publisher.publish(topics.inbound, message);
    const letter = await waitFor(
      () => dlq.records.find((entry) => entry.headers.ce_id === message.metadata.message_id),
      { description: 'the refused transfer in the dead-letter topic' },
    );
    expect(letter.headers).toMatchObject({
      'baton.dlq.error.code': 'NOT_AUTHORIZED',
      'baton.dlq.error.retriable': 'false',
      '__connect.errors.stage': 'authorize',
      '__connect.errors.exception.message':
        'sender "human_agent" may not send TASK_TRANSFER to "sales_agent" (routed by rule sales): ' +
        'no rule of the sender policy allows it',
    });
    // A later message of the same partition has been taken: the refused one was never dispatched.
    const later = saleFrom('triage_agent');
    await publisher.publish(topics.inbound, {
      ...later,
      metadata: { ...later.metadata, task_id: message.metadata.task_id },
    });
    await waitFor(() => sales.records.some((entry) => entry.headers.ce_id === later.metadata.message_id), {
      description: 'the later, allowed transfer',
    });
    expect(sales.records.filter((entry) => entry.headers.ce_id === message.metadata.message_id)).toEqual([]);
    const metrics = await (await fetch(`${router.address}/metrics`)).text();
    expect(metrics).toMatch(
      /baton_handoffs_refused_total\{[^}]*handoff_type="TASK_TRANSFER",recipient="sales_agent"[^}]*\} 1/,
    );
    expect(metrics).toMatch(/baton_dead_letters_total\{[^}]*reason="NOT_AUTHORIZED"[^}]*\} 1/);
  });
});

describe('the router’s start-up check of its sender policy', () => {
  it('refuses to start on a policy naming an agent the routing table lacks, naming the rule and the field', async () => {
    const paths = writeFiles({
      'table.yaml': TABLE,
      'policy.yaml': `version: 1
rules:
  - id: to-the-experts
    senders: [triage_agent]
    handoff_types: [ESCALATION]
    recipients: [level3_network_expert_agent_pool]
`,
    });
    const started = startServiceProcess('services/router/src/main.ts', {
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
      SCHEMA_REGISTRY_URL: inject('schemaRegistryUrl'),
      BATON_TOPIC_PREFIX: uniqueName('bad-policy'),
      ROUTING_TABLE: paths['table.yaml']!,
      AUTHORIZATION_POLICY: paths['policy.yaml']!,
    });
    await expect(started).rejects.toThrow(
      /exited with 1 before starting[\s\S]*CONFIG_INVALID[\s\S]*\/rules\/0\/recipients\/0[\s\S]*rule 0 \(\\?"to-the-experts\\?"\): recipient \\?"level3_network_expert_agent_pool\\?" is not an agent of the routing table/,
    );
  });
});
