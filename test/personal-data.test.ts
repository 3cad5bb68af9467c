import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KeyRingFile, decryptPersonalData } from '@baton/field-encryption';
import { buildHandoff, isEncryptedValue, type HandoffDraft } from '@baton/protocol';
import {
  REFERENCE_ESCALATION as SEED,
  customerTransfer,
  startPersonalDataRig,
  type PersonalDataRig,
} from './helpers/personal-data-rig.js';
import { readTopicLog } from './helpers/read-topic.js';
import {
  runBaton,
  uniqueName,
  waitFor,
  type BatonRig,
  type RecordCollector,
  type ServiceProcess,
} from './helpers/index.js';
import { systemToolsFor } from './system-tools/suite.js';

/**
 * Personal data encrypted at rest (issue 13, part 4), end to end on the real broker and registry:
 * the gateway and the customer service agent hold the key ring, the router does not. The seed
 * example's name, e-mail and phone never travel in clear (inbound topic, a DLQ, what `baton tail`
 * prints); the agent still acts on them; the gateway shows them only to the personal-data role.
 */

const CUSTOMER_SERVICE = 'customer_service_agent';
const TECHNICAL_SUPPORT = 'technical_support_agent_pool';
/** Every personal value of the seed example; user_id stays clear by design and is not listed. */
const SEED_PERSONAL_VALUES = [
  'John Doe',
  '+1-555-123-4567',
  'My internet keeps dropping every hour.',
  'Please restart your router and modem.',
  'Intermittent disconnections',
];
const TOKENS = { viewer: 'pii-viewer-token', support: 'pii-support-token', publisher: 'pii-publisher-token' };
const API_KEYS = [
  `watcher:${TOKENS.viewer}:viewer`,
  `support:${TOKENS.support}:viewer+personal-data`,
  `pub:${TOKENS.publisher}:publisher`,
].join(',');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];
const tools = systemToolsFor('personal data page test', ['chromium']);

let pii: PersonalDataRig;
let keyRingPath: string;
let rig: BatonRig;
let gateway: ServiceProcess;
let inboundDlq: RecordCollector;
let supportInbox: RecordCollector;
let events: RecordCollector;
const tasks = {
  dead: uniqueName('pii-dead'),
  escalated: uniqueName('pii-escalated'),
  thirdParty: uniqueName('pii-third-party'),
};
/** A header a third-party producer set that quotes the customer: the DLQ keeps every header. */
const QUOTING_HEADER = { 'x-crm-note': 'call back John Doe on +1-555-123-4567' };

async function api(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${gateway.address}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** The seed example as a client posts it, for `taskId`, to `recipient`. */
function seedFor(taskId: string, recipient: string): Record<string, any> {
  const message = structuredClone(SEED) as Record<string, any>;
  delete message.metadata.message_id;
  // The seed expired in 2023: without this the router would dead-letter it HANDOFF_EXPIRED, not NO_ROUTE.
  delete message.metadata.expiration_time;
  return { ...message, metadata: { ...message.metadata, task_id: taskId, recipient_id: recipient } };
}

/** What a plain kafkajs consumer reads of `topic`: every value as text. */
async function plainValues(topic: string): Promise<string[]> {
  const log = await readTopicLog(inject('kafkaBrokers'), topic);
  return log.committed.map((record) => record.value?.toString('latin1') ?? '');
}

function expectNoClearPersonalData(texts: readonly string[]): void {
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) for (const value of SEED_PERSONAL_VALUES) expect(text).not.toContain(value);
}

beforeAll(async () => {
  // No default route: the seed sent to an agent the table does not know is dead-lettered by the router.
  pii = await startPersonalDataRig('pii', [CUSTOMER_SERVICE, TECHNICAL_SUPPORT]);
  ({ rig, keyRingPath } = pii);
  await rig.addProcess('customer-service-agent', 'services/customer-service-agent/src/main.ts', pii.keyRingEnv);
  gateway = await rig.addProcess('gateway', 'services/gateway/src/main.ts', {
    ...pii.keyRingEnv,
    BATON_API_KEYS: API_KEYS,
  });
  [inboundDlq, supportInbox, events] = await Promise.all([
    rig.collect(`${rig.topics.inbound}.dlq`),
    rig.collect(rig.topics.agentInbox(TECHNICAL_SUPPORT)),
    rig.collect(rig.topics.events),
  ]);

  const dead = await api('POST', '/v1/handoffs', TOKENS.publisher, seedFor(tasks.dead, 'nobody_we_know_pool'));
  expect(dead.status).toBe(202);
  // Customer service escalates a network fault that only the customer's own words describe.
  const transfer = customerTransfer(tasks.escalated, CUSTOMER_SERVICE);
  expect((await api('POST', '/v1/handoffs', TOKENS.publisher, transfer)).status).toBe(202);
  // A third-party producer that does not encrypt, with a router that does not require it: in clear.
  await rig.publisher.publish(rig.topics.inbound, buildHandoff(seedFor(tasks.thirdParty, 'nobody') as HandoffDraft), {
    extraHeaders: QUOTING_HEADER,
  });
  await waitFor(() => inboundDlq.records.some((record) => record.key === tasks.thirdParty), {
    description: "the third party's clear handoff to be dead-lettered",
    timeoutMs: 30_000,
  });
  await waitFor(() => inboundDlq.records.some((record) => record.key === tasks.dead), {
    description: 'the seed sent to an unknown agent to be dead-lettered',
    timeoutMs: 30_000,
  });
  await waitFor(() => supportInbox.records.some((record) => record.key === tasks.escalated), {
    description: 'customer service to escalate the network fault to technical support',
    timeoutMs: 30_000,
  });
});

afterAll(async () => {
  const codes = await pii?.stop();
  expect(codes?.gateway).toBe(0);
});

describe('personal data encrypted at rest', () => {
  it('keeps the name, e-mail and phone out of the inbound topic and the DLQ, as a plain consumer reads them', async () => {
    const inbound = await plainValues(rig.topics.inbound);
    // The gateway's two posts, customer service's escalation (agents hand off through the router),
    // and the third party's handoff, which stays in clear where BATON_PII_REQUIRED is not set.
    expect(inbound).toHaveLength(4);
    expect(inbound.filter((text) => text.includes('John Doe'))).toHaveLength(1);
    expectNoClearPersonalData(inbound.filter((text) => !text.includes(tasks.thirdParty)));
    expectNoClearPersonalData(
      (await plainValues(`${rig.topics.inbound}.dlq`)).filter((text) => !text.includes(tasks.thirdParty)),
    );
    expectNoClearPersonalData(await plainValues(rig.topics.agentInbox(TECHNICAL_SUPPORT)));
    // What the router dead-lettered is the record as it travelled.
    const [letter] = inboundDlq.records.filter((record) => record.key === tasks.dead);
    const body = (await rig.codec.decodeUnchecked(letter!.value as Buffer)) as Record<string, any>;
    expect(isEncryptedValue(body.payload.data.customer_info.name)).toBe(true);
    expect(body.payload.data.customer_info.user_id).toBe(SEED.payload.data.customer_info.user_id);
  });

  it('lets the agent holding the key ring act on the clear values, and re-encrypts what it hands on', async () => {
    const outcomes = await rig.outcomes(events, tasks.escalated);
    expect(outcomes.map((event) => [event.agent_id, event.outcome, event.target])).toContainEqual([
      CUSTOMER_SERVICE,
      'ESCALATED',
      TECHNICAL_SUPPORT,
    ]);
    const [escalation] = await rig.handoffs(supportInbox, tasks.escalated);
    const travelled = escalation as Record<string, any>;
    expect(isEncryptedValue(travelled.payload.data.customer_info.name)).toBe(true);
    expect(isEncryptedValue(travelled.payload.data.technical_details.symptoms)).toBe(true);
    const clear = decryptPersonalData(escalation, new KeyRingFile(keyRingPath)) as Record<string, any>;
    expect(clear.payload.data.customer_info).toEqual(SEED.payload.data.customer_info);
    // The symptoms are the customer's words the agent read in clear.
    expect(clear.payload.data.technical_details.symptoms).toBe(
      'The customer asks for help with their service. / My internet keeps dropping every hour.',
    );
    expect(clear.context.historical_data_summary).toBe(SEED.context.historical_data_summary);
  });

  it('prints ciphertext in baton tail, even with the key ring in its environment', async () => {
    const run = await runBaton(['tail', rig.topics.inbound, '--from-beginning', '--max', '4', '--json'], {
      env: {
        KAFKA_BROKERS: inject('kafkaBrokers').join(','),
        SCHEMA_REGISTRY_URL: inject('schemaRegistryUrl'),
        BATON_PII_KEYRING_FILE: keyRingPath,
      },
    });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    // All four, in whatever order the partitions give them: the third party's alone travels in clear.
    expect(lines.filter((line) => line.includes('John Doe'))).toEqual([expect.stringContaining(tasks.thirdParty)]);
    expectNoClearPersonalData(lines.filter((line) => !line.includes(tasks.thirdParty)));
    expect(lines.join('\n')).toContain('baton:enc:v1:pii-test:');
  });

  it('shows a dead letter masked to a viewer and in clear to the personal-data role', async () => {
    const topic = `${rig.topics.inbound}.dlq`;
    const listed = await api('GET', `/v1/dlq/${topic}/messages?task_id=${tasks.dead}`, TOKENS.viewer);
    expect(listed.body.total).toBe(1);
    const path = `/v1/dlq/${topic}/messages/${listed.body.messages[0].id}`;

    const masked = await api('GET', path, TOKENS.viewer);
    expect(masked.status).toBe(200);
    expect(masked.body.body.payload.data.customer_info).toEqual({
      user_id: SEED.payload.data.customer_info.user_id,
      name: '•••',
      contact_number: '•••',
    });
    expect(masked.body.body.context.historical_data_summary).toBe('•••');
    expectNoClearPersonalData([JSON.stringify(masked.body)]);

    const clear = await api('GET', path, TOKENS.support);
    expect(clear.body.body.payload.data.customer_info).toEqual(SEED.payload.data.customer_info);
    expect(clear.body.body.context.user_interaction_history).toEqual(SEED.context.user_interaction_history);
    expect(clear.body.body.payload.data.technical_details).toEqual(SEED.payload.data.technical_details);
    expect(clear.body.error.code).toBe('NO_ROUTE');
  });
});

describe('the raw value and headers of a dead letter', () => {
  const topic = () => `${rig.topics.inbound}.dlq`;
  async function detailPath(taskId: string): Promise<string> {
    const listed = await api('GET', `/v1/dlq/${topic()}/messages?task_id=${taskId}`, TOKENS.viewer);
    expect(listed.body.total).toBe(1);
    return `/v1/dlq/${topic()}/messages/${listed.body.messages[0].id}`;
  }

  it('withholds from a viewer the raw value and header quotes of a record that travelled in clear', async () => {
    const path = await detailPath(tasks.thirdParty);
    const viewer = (await api('GET', path, TOKENS.viewer)).body;
    expect(viewer.value_base64).toBeNull();
    expect(viewer.value_redacted).toBe('personal-data');
    expect(viewer.headers['x-crm-note']).toBe('call back ••• on •••');
    expect(viewer.body.payload.data.customer_info.name).toBe('•••');
    expect(viewer.error.code).toBe('NO_ROUTE');
    expectNoClearPersonalData([JSON.stringify(viewer)]);

    const support = (await api('GET', path, TOKENS.support)).body;
    expect(support.value_redacted).toBeUndefined();
    expect(Buffer.from(support.value_base64, 'base64').toString('latin1')).toContain('John Doe');
    expect(support.headers['x-crm-note']).toBe(QUOTING_HEADER['x-crm-note']);
  });

  it('gives a viewer the raw value of a record whose personal fields are all encrypted', async () => {
    const viewer = (await api('GET', await detailPath(tasks.dead), TOKENS.viewer)).body;
    expect(viewer.value_redacted).toBeUndefined();
    const [letter] = inboundDlq.records.filter((record) => record.key === tasks.dead);
    expect(viewer.value_base64).toBe(letter!.value!.toString('base64'));
  });

  it('says in baton dlq show that the value is withheld, and prints no clear value', async () => {
    const path = await detailPath(tasks.thirdParty);
    const id = path.split('/').pop()!;
    const env = { BATON_GATEWAY_URL: gateway.address, BATON_TOKEN: TOKENS.viewer };
    const text = await runBaton(['dlq', 'show', topic(), id], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^value +withheld \(personal-data\): it may hold personal data in clear; the personal-data role sees it$/m,
    );
    expect(text.stdout).toMatch(/^ +x-crm-note +call back ••• on •••$/m);
    const json = await runBaton(['dlq', 'show', topic(), id, '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ value_base64: null, value_redacted: 'personal-data' });
    expectNoClearPersonalData([text.stdout, json.stdout]);
  });
});

describe.skipIf(tools.skip)('personal data on the gateway page', () => {
  let browser: Browser;

  beforeAll(async () => {
    tools.assertAvailable();
    browser = await chromium.launch({ executablePath: tools.path('chromium'), args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function deadLetterBodyAs(
    token: string,
    taskId = tasks.dead,
  ): Promise<{ body: string; rawValue: string; headers: string }> {
    const context = await browser.newContext();
    const page: Page = await context.newPage();
    await page.goto(`${gateway.address}/ui/`);
    await page.getByLabel('API token').fill(token);
    await page.getByTestId('token-save').click();
    await expect.poll(() => page.getByTestId('token-status').textContent()).toContain('Token set');
    // The dead-letter list filtered to the router's DLQ and the task, as the overview's links open it.
    const filters = new URLSearchParams({ topic: `${rig.topics.inbound}.dlq`, task_id: taskId });
    await page.goto(`${gateway.address}/ui/#/dead-letters?${filters}`);
    const rows = page.getByTestId('message-row');
    await expect
      .poll(() => rows.evaluateAll((found) => found.map((row) => row.getAttribute('data-task-id'))))
      .toEqual([taskId]);
    await rows.locator('td').nth(3).click();
    await page.getByTestId('detail-body').waitFor();
    const body = (await page.getByTestId('detail-body').textContent()) ?? '';
    const rawValue = (await page.getByTestId('detail-summary').locator('[data-field="value"]').textContent()) ?? '';
    const headers = (await page.getByTestId('detail-headers').textContent()) ?? '';
    await context.close();
    return { body, rawValue, headers };
  }

  it('masks the personal fields for a viewer without the role, and shows them to one with it', async () => {
    const masked = (await deadLetterBodyAs(TOKENS.viewer)).body;
    expect(masked).toContain('"name": "•••"');
    expectNoClearPersonalData([masked]);
    const clear = (await deadLetterBodyAs(TOKENS.support)).body;
    expect(clear).toContain('"name": "John Doe"');
    expect(clear).toContain('"contact_number": "+1-555-123-4567"');
  });

  it("tells a viewer the raw value of a record that travelled in clear is withheld, and masks the headers' quotes", async () => {
    const shown = await deadLetterBodyAs(TOKENS.viewer, tasks.thirdParty);
    expect(shown.rawValue).toBe(
      'Withheld (personal-data): it may hold personal data in clear; the personal-data role sees it',
    );
    expect(shown.headers).toContain('call back ••• on •••');
    expectNoClearPersonalData([shown.body, shown.rawValue, shown.headers]);
  });
});
