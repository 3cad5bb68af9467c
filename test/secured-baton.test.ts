/**
 * Baton end to end on a broker with no plaintext listener and least privilege: each service its own
 * process and its own SCRAM-SHA-512 principal, granted only the ACLs `serviceAcls(batonTopology())`
 * generates for the file's topic prefix; no service is a super user.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { batonTopology, serviceAcls } from '@baton/kafka-acls';
import { applyAcls, createKafka, topicNames } from '@baton/kafka';
import { startSecuredLocalKafka, type SecuredLocalKafka } from '@baton/local-infra';
import type { TaskView } from '@baton/task-tracking';
import { runIsolatedService } from './helpers/isolated-service.js';
import type { SpawnedService } from './helpers/service-process.js';
import { rawKafkajsWith, type Kafka } from './helpers/raw-kafkajs.js';
import { uniqueName, waitFor } from './helpers/index.js';
import { steps, taskView } from './helpers/task-view.js';

const TRIAGE = 'triage_agent';
const SALES = 'sales_agent';
const FLOW_TIMEOUT_MS = 45_000;
const CUSTOMER = { user_id: 'cust-5ec0de', name: 'Wile E. Coyote' };
/** The services run, by folder name: each its own principal, `User:<folder>`. */
const SERVICES = ['router', 'triage-agent', 'sales-agent', 'tracker', 'gateway'] as const;
type Service = (typeof SERVICES)[number];
const ENTRY: Record<Service, string> = {
  router: 'services/router/src/main.ts',
  'triage-agent': 'services/triage-agent/src/main.ts',
  'sales-agent': 'services/sales-agent/src/main.ts',
  tracker: 'services/tracker/src/main.ts',
  gateway: 'services/gateway/src/main.ts',
};

const topics = topicNames(uniqueName('secured-baton'));
// Random, so finding one in a log cannot be a coincidence.
const passwords = Object.fromEntries(
  SERVICES.map((service) => [service, `${service}-${randomBytes(16).toString('hex')}`]),
) as Record<Service, string>;
const wrongPassword = `wrong-${randomBytes(16).toString('hex')}`;
const gatewayToken = `tok-${randomBytes(16).toString('hex')}`;
const secrets = [...Object.values(passwords), wrongPassword, gatewayToken];

let kafka: SecuredLocalKafka;
let dir: string;
let ca: string;
const passwordFiles = {} as Record<Service | 'wrong', string>;
const running = new Map<string, SpawnedService>();
/** Every process ever started, stopped or not: their output is checked for secrets at the end. */
const everyProcess: SpawnedService[] = [];
/** Every error message the test saw, checked for secrets too. */
const errorsSeen: string[] = [];

function commonEnv(name: string): Record<string, string> {
  return {
    SCHEMA_REGISTRY_URL: inject('schemaRegistryUrl'),
    BATON_TOPIC_PREFIX: topics.prefix,
    BATON_PARTITIONS: '1',
    BATON_INSTANCE_ID: name,
    HTTP_PORT: '0',
  };
}

/** A service logging in on the SASL_SSL listener as `User:<service>`, with the password in `passwordFile`. */
function scramEnv(service: Service, passwordFile = passwordFiles[service]): Record<string, string> {
  return {
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
    KAFKA_SSL_CA_FILE: kafka.caPath,
    KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
    KAFKA_SASL_USERNAME: service,
    KAFKA_SASL_PASSWORD_FILE: passwordFile,
  };
}

async function launch(name: string, entry: string, env: Record<string, string>): Promise<SpawnedService> {
  const service = await runIsolatedService(name, entry, { ...commonEnv(name), ...env });
  everyProcess.push(service);
  running.set(name, service);
  return service;
}

async function start(service: Service, extra: Record<string, string> = {}): Promise<SpawnedService> {
  const launched = await launch(service, ENTRY[service], { ...scramEnv(service), ...extra });
  await launched.started;
  return launched;
}

function http(service: string): string {
  const started = running.get(service)?.logs.find((line) => line.event === 'service.started');
  return String(started?.http);
}

async function gatewayApi(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${http('gateway')}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${gatewayToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

function trackerView(taskId: string): Promise<TaskView | undefined> {
  return taskView(http('tracker'), taskId);
}

/** The tracker's view of `taskId` once its timeline ends with `last`. */
async function settled(taskId: string, last: string): Promise<TaskView> {
  let view: TaskView | undefined;
  await waitFor(
    async () => {
      view = await trackerView(taskId);
      return view?.status === 'FINISH' && steps(view).at(-1) === last;
    },
    { description: `${taskId} to end with ${last} (last: ${JSON.stringify(steps(view))})`, timeoutMs: FLOW_TIMEOUT_MS },
  );
  return view as TaskView;
}

/** What a chat front end posts for the customer's words: triage classifies them. */
function userRequest(taskId: string, summary: string): Record<string, unknown> {
  return {
    metadata: { sender_id: 'user', recipient_id: TRIAGE, task_id: taskId },
    payload: {
      handoff_type: 'TASK_TRANSFER',
      data: { issue_category: 'UNCLASSIFIED', task_summary: summary, customer_info: CUSTOMER },
    },
  };
}

/** A client logging in as sales-agent, with no retry: the broker's first answer is the result. */
function salesClient(): Kafka {
  return rawKafkajsWith({
    brokers: kafka.brokers,
    clientId: uniqueName('sales-agent-raw'),
    ssl: { ca },
    sasl: { mechanism: 'scram-sha-512', username: 'sales-agent', password: passwords['sales-agent'] },
    retry: { retries: 0 },
  });
}

/** The broker's error code in a kafkajs error, wherever kafkajs wrapped it; the error's name too. */
function brokerError(error: unknown): { name: string | undefined; type: string | undefined } {
  if (error instanceof Error) errorsSeen.push(String(error.message), String(error.stack));
  for (let at: unknown = error; at instanceof Error; at = (at as { cause?: unknown }).cause) {
    const type = (at as { type?: unknown }).type;
    if (typeof type === 'string') return { name: at.name, type };
  }
  return { name: error instanceof Error ? error.name : undefined, type: undefined };
}

async function produceOnce(client: Kafka, topic: string): Promise<unknown> {
  const producer = client.producer({ retry: { retries: 0 } });
  try {
    await producer.connect();
    await producer.send({ topic, messages: [{ key: 'intruder', value: 'not yours' }] });
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-secured-baton-'));
  kafka = await startSecuredLocalKafka({ logFile: join(dir, 'broker.log') });
  ca = await readFile(kafka.caPath, 'utf8');
  await kafka.addScramUsers(
    SERVICES.map((service) => ({ name: service, password: passwords[service], mechanism: 'SCRAM-SHA-512' as const })),
  );
  for (const service of SERVICES) {
    passwordFiles[service] = join(dir, `${service}.password`);
    await writeFile(passwordFiles[service], `${passwords[service]}\n`, { mode: 0o600 });
  }
  passwordFiles.wrong = join(dir, 'wrong.password');
  await writeFile(passwordFiles.wrong, `${wrongPassword}\n`, { mode: 0o600 });
  const superUser = createKafka({
    brokers: kafka.mtlsBrokers,
    clientId: 'secured-baton-acls',
    security: kafka.admin.security,
  });
  await applyAcls(superUser, serviceAcls(batonTopology(), { prefix: topics.prefix }));

  // The router first: it creates the inbound topic and every inbox. Then the rest at once.
  await start('router');
  await Promise.all([
    start('triage-agent'),
    start('sales-agent'),
    start('tracker'),
    start('gateway', { BATON_API_KEYS: `test:${gatewayToken}:viewer+publisher+operator` }),
  ]);
}, 150_000);

afterAll(async () => {
  const names = [...running.keys()];
  const codes = await Promise.all([...running.values()].map((service) => service.stop('SIGTERM')));
  await kafka?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  expect(Object.fromEntries(names.map((name, index) => [name, codes[index]]))).toEqual(
    Object.fromEntries(names.map((name) => [name, 0])),
  );
  // What the services printed while stopping too.
  const printed = [...everyProcess.flatMap((service) => service.lines), ...errorsSeen];
  for (const secret of secrets) expect(printed.filter((line) => line.includes(secret))).toEqual([]);
});

describe('Baton on a secured broker, each service its own least-privileged principal', () => {
  it('runs as itself: every service logged in with its own SCRAM user and started', async () => {
    // Each principal the ACLs name is a service's own; the broker's super user is none of them.
    const principals = serviceAcls(batonTopology(), { prefix: topics.prefix }).map((acl) => acl.principal);
    for (const service of SERVICES) expect(principals).toContain(`User:${service}`);
    expect(SERVICES).not.toContain(kafka.admin.principal);
    for (const file of Object.values(passwordFiles)) expect((await stat(file)).mode & 0o777).toBe(0o600);
    for (const service of SERVICES) {
      expect(running.get(service)?.logs.some((line) => line.event === 'service.started')).toBe(true);
    }
    expect(running.get('sales-agent')?.logs.find((line) => line.event === 'service.started')).toMatchObject({
      source: topics.agentInbox(SALES),
      group: `${topics.prefix}.agent.${SALES}`,
    });
  });

  it('fast path: a purchase posted to the gateway goes router → triage → router → sales, COMPLETED by sales', async () => {
    const taskId = uniqueName('secured-purchase');
    const posted = await gatewayApi(
      'POST',
      '/v1/handoffs',
      userRequest(taskId, 'I want to buy the RouterX-Pro mesh kit'),
    );
    expect(posted.status).toBe(202);
    expect(posted.body).toMatchObject({ task_id: taskId, topic: topics.inbound });

    const view = await settled(taskId, `COMPLETED @${SALES}`);
    expect(steps(view)).toEqual([`ROUTED @router`, `HANDED_OFF @${TRIAGE}`, `ROUTED @router`, `COMPLETED @${SALES}`]);
    expect(view).toMatchObject({ task_id: taskId, status: 'FINISH', owner: null });
    expect(view.timeline).toMatchObject([
      { kind: 'outcome', agent_id: 'router', outcome: 'ROUTED', sender_id: 'user', target: TRIAGE },
      { kind: 'outcome', agent_id: TRIAGE, outcome: 'HANDED_OFF', target: SALES },
      {
        kind: 'outcome',
        agent_id: 'router',
        outcome: 'ROUTED',
        sender_id: TRIAGE,
        target: SALES,
        issue_category: 'SALES',
      },
      {
        kind: 'outcome',
        agent_id: SALES,
        outcome: 'COMPLETED',
        issue_category: 'SALES',
        detail: 'Ordered RouterX-Pro mesh kit at $299.',
      },
    ]);
    // The user's request is the one the gateway accepted; sales completed the handoff the router sent it.
    expect(view.timeline[0]?.message_id).toBe(posted.body.message_id);
    expect(view.timeline[3]?.message_id).toBe(view.timeline[2]?.message_id);
  });

  it('negotiated: triage offers a purchase to sales through the gateway; sales accepts, the tracker sends the context, sales completes it', async () => {
    const taskId = uniqueName('secured-negotiated');
    const opened = await gatewayApi('POST', '/v1/negotiations', {
      handoff: {
        metadata: { sender_id: TRIAGE, recipient_id: SALES, task_id: taskId },
        payload: {
          handoff_type: 'TASK_TRANSFER',
          data: {
            issue_category: 'SALES',
            task_summary: 'I want to buy the RouterX-Pro mesh kit',
            customer_info: CUSTOMER,
          },
        },
      },
      desired_agent_type: 'Sales',
      reason: 'the customer wants to buy',
    });
    expect(opened.status).toBe(202);
    expect(opened.body).toEqual({
      negotiation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      task_id: taskId,
      receiver: SALES,
      context_mode: 'by-value',
    });

    const view = await settled(taskId, `COMPLETED @${SALES}`);
    expect(steps(view)).toEqual([
      `staged by-value @${TRIAGE}`,
      `HandoffRequest ${TRIAGE}>${SALES}`,
      `HandoffAccept ${SALES}>${TRIAGE}`,
      `TaskContextTransfer ${TRIAGE}>${SALES}`,
      `HandoffComplete ${SALES}>${TRIAGE}`,
      `COMPLETED @${SALES}`,
    ]);
    expect(view.negotiations).toMatchObject([
      {
        negotiation_id: opened.body.negotiation_id,
        sender_id: TRIAGE,
        context_mode: 'by-value',
        outcome: 'COMPLETED',
        sender_state: 'TaskFinished',
        attempts: [{ receiver: SALES, via: 'target', receiver_state: 'Active' }],
      },
    ]);
    expect(view.refused).toEqual([]);
    expect(view.status_history.map((change) => change.status)).toEqual(['CREATE', 'WAITING', 'EXECUTING', 'FINISH']);
    expect(view.timeline.at(-1)).toMatchObject({
      kind: 'outcome',
      agent_id: SALES,
      outcome: 'COMPLETED',
      detail: 'Ordered RouterX-Pro mesh kit at $299.',
    });
    expect(view.owner).toBeNull();
  });

  it('a wrong password stops a service at once: exit 1, KAFKA_AUTH_FAILED, no retry loop', async () => {
    const began = Date.now();
    const refused = await launch('triage-agent-wrong-password', ENTRY['triage-agent'], {
      ...scramEnv('triage-agent', passwordFiles.wrong),
    });
    const code = await refused.exited;
    const tookMs = Date.now() - began;
    running.delete(refused.name);
    expect(code).toBe(1);
    expect(tookMs).toBeLessThan(15_000);
    expect(refused.logs.some((line) => line.event === 'service.started')).toBe(false);
    // One attempt, one fatal line naming the code: it stopped, it did not retry.
    const fatal = refused.logs.filter((line) => line.event === 'service.start_failed');
    expect(fatal).toEqual([expect.objectContaining({ err: expect.objectContaining({ code: 'KAFKA_AUTH_FAILED' }) })]);
    expect(refused.logs.filter((line) => line.event === 'component.start_failed')).toEqual([
      expect.objectContaining({ component: 'topics', err: expect.objectContaining({ code: 'KAFKA_AUTH_FAILED' }) }),
    ]);
  });

  it("sales-agent's credentials can neither read nor write triage's inbox, nor write the router's DLQ", async () => {
    const client = salesClient();
    const consumer = client.consumer({ groupId: `${topics.prefix}.agent.${TRIAGE}`, retry: { retries: 0 } });
    const consumed = await (async () => {
      try {
        await consumer.connect();
        await consumer.subscribe({ topic: topics.agentInbox(TRIAGE), fromBeginning: true });
        await consumer.run({ eachMessage: async () => undefined });
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    const crashed =
      consumed ??
      (await new Promise<unknown>((resolve) =>
        consumer.on(consumer.events.CRASH, (event) => resolve(event.payload.error)),
      ));
    await consumer.disconnect().catch(() => undefined);
    expect(brokerError(crashed)).toMatchObject({
      name: 'KafkaJSProtocolError',
      // Subscribing asks for the topic's metadata first: the broker refuses the topic itself.
      type: 'TOPIC_AUTHORIZATION_FAILED',
    });

    expect(brokerError(await produceOnce(client, topics.agentInbox(TRIAGE)))).toEqual({
      name: 'KafkaJSProtocolError',
      type: 'TOPIC_AUTHORIZATION_FAILED',
    });
    expect(brokerError(await produceOnce(client, `${topics.inbound}.dlq`))).toEqual({
      name: 'KafkaJSProtocolError',
      type: 'TOPIC_AUTHORIZATION_FAILED',
    });
  });

  it('mutual TLS: sales-agent with a CN=sales-agent certificate (KAFKA_SECURITY_PROTOCOL=SSL) takes over and completes a purchase', async () => {
    expect(await running.get('sales-agent')?.stop('SIGTERM')).toBe(0);
    running.delete('sales-agent');
    const certificate = await kafka.issueClientCertificate('sales-agent');
    const mtls = await launch('sales-agent-mtls', ENTRY['sales-agent'], {
      KAFKA_BROKERS: kafka.mtlsBrokers.join(','),
      KAFKA_SECURITY_PROTOCOL: 'SSL',
      KAFKA_SSL_CA_FILE: kafka.caPath,
      KAFKA_SSL_CERT_FILE: certificate.certPath,
      KAFKA_SSL_KEY_FILE: certificate.keyPath,
    });
    expect(await mtls.started).toMatchObject({
      source: topics.agentInbox(SALES),
      group: `${topics.prefix}.agent.${SALES}`,
    });

    // The router dispatches only to a live agent: it must have read the new instance's registration.
    await waitFor(
      () =>
        running
          .get('router')
          ?.logs.some((line) => line.event === 'registry.instance_registered' && line.instance_id === mtls.name),
      { description: 'the router to see the mTLS sales agent live', timeoutMs: FLOW_TIMEOUT_MS },
    );
    const taskId = uniqueName('secured-mtls-purchase');
    const posted = await gatewayApi(
      'POST',
      '/v1/handoffs',
      userRequest(taskId, 'I want to buy the RouterX-Pro mesh kit'),
    );
    expect(posted.status).toBe(202);
    const view = await settled(taskId, `COMPLETED @${SALES}`);
    expect(steps(view)).toEqual([`ROUTED @router`, `HANDED_OFF @${TRIAGE}`, `ROUTED @router`, `COMPLETED @${SALES}`]);
  });

  it('no password and no gateway token is in any line any service printed, nor in any error seen', async () => {
    const printed = everyProcess.flatMap((service) => service.lines);
    expect(printed.length).toBeGreaterThan(0);
    const haystack = [...printed, ...errorsSeen];
    for (const secret of secrets) {
      expect(haystack.filter((line) => line.includes(secret))).toEqual([]);
    }
    const brokerLog = await readFile(join(dir, 'broker.log'), 'utf8').catch(() => '');
    for (const secret of secrets) expect(brokerLog).not.toContain(secret);
  });
});
