import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSecuredLocalKafka, type SecuredLocalKafka } from '@baton/local-infra';
import { uniqueName, waitFor } from './helpers/index.js';
// kafkajs itself: a user's own client, logging in with SCRAM or a client certificate, and the super
// user's admin granting ACLs.
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  ResourcePatternTypes,
  rawKafkajsWith,
  type Kafka,
  type KafkaConfig,
} from './helpers/raw-kafkajs.js';

// One broker of this file's own (not the shared plaintext one): started once, its tests share it.
let kafka: SecuredLocalKafka;
let ca: string;
let superUser: Kafka;
let logDir: string;
const progress: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
// Node warns DEP0123 when a TLS server name is an IP: the broker advertises `localhost` so it never is.
const warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(warning);
};

// Random, so finding one in a process's argv or a log cannot be a coincidence.
const ordersPassword = `orders-${randomBytes(12).toString('hex')}`;
const idlePassword = `idle-${randomBytes(12).toString('hex')}`;
const passwords = [ordersPassword, idlePassword];

beforeAll(async () => {
  process.on('warning', onWarning);
  logDir = await mkdtemp(join(tmpdir(), 'baton-secured-kafka-test-'));
  const startedAt = Date.now();
  kafka = await startSecuredLocalKafka({
    logFile: join(logDir, 'broker.log'),
    onProgress: (line) => progress.push(line),
  });
  progress.push(`test: broker started in ${Date.now() - startedAt} ms`);
  ca = await readFile(kafka.caPath, 'utf8');
  const scramAt = Date.now();
  await kafka.addScramUsers([
    { name: 'orders-agent', mechanism: 'SCRAM-SHA-512', password: ordersPassword },
    { name: 'idle-agent', mechanism: 'SCRAM-SHA-256', password: idlePassword },
  ]);
  progress.push(`test: scram users added in ${Date.now() - scramAt} ms`);
  const { tls } = kafka.admin.security;
  superUser = rawKafkajsWith({
    brokers: kafka.mtlsBrokers,
    clientId: 'secured-test-super-user',
    ssl: { ca: tls?.ca, cert: tls?.cert, key: tls?.key, passphrase: tls?.keyPassword },
  });
}, 120_000);

afterAll(async () => {
  process.off('warning', onWarning);
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup().catch(() => undefined)));
  await kafka?.stop();
  if (logDir !== undefined) await rm(logDir, { recursive: true, force: true });
});

/** A client logging in on the SASL_SSL listener, trusting the broker's CA alone. */
function scramClient(username: string, password: string, extra: Partial<KafkaConfig> = {}): Kafka {
  return rawKafkajsWith({
    brokers: kafka.brokers,
    clientId: uniqueName(username),
    ssl: { ca },
    sasl:
      username === 'orders-agent'
        ? { mechanism: 'scram-sha-512', username, password }
        : { mechanism: 'scram-sha-256', username, password },
    ...extra,
  });
}

async function createTopic(topic: string): Promise<void> {
  const admin = superUser.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

/** ALLOW ACLs for `principal` (User:name) on a topic, and on a group when given. */
async function grant(principal: string, topic: string, operations: number[], group?: string): Promise<void> {
  const admin = superUser.admin();
  await admin.connect();
  try {
    const common = {
      resourcePatternType: ResourcePatternTypes.LITERAL,
      principal: `User:${principal}`,
      host: '*',
      permissionType: AclPermissionTypes.ALLOW,
    };
    await admin.createAcls({
      acl: [
        ...operations.map((operation) => ({
          ...common,
          resourceType: AclResourceTypes.TOPIC,
          resourceName: topic,
          operation,
        })),
        ...(group === undefined
          ? []
          : [
              {
                ...common,
                resourceType: AclResourceTypes.GROUP,
                resourceName: group,
                operation: AclOperationTypes.READ,
              },
            ]),
      ],
    });
  } finally {
    await admin.disconnect();
  }
}

/** Produces one record with a client that does not retry; resolves with the error, if any. */
async function produceOnce(client: Kafka, topic: string, value: string): Promise<unknown> {
  const producer = client.producer({ retry: { retries: 0 } });
  try {
    await producer.connect();
    await producer.send({ topic, messages: [{ value }] });
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
}

/** The broker's error code in a kafkajs error, wherever kafkajs wrapped it. */
function protocolErrorType(error: unknown): string | undefined {
  for (let at: unknown = error; at instanceof Error; at = (at as { cause?: unknown }).cause) {
    const type = (at as { type?: unknown }).type;
    if (typeof type === 'string') return type;
  }
  return undefined;
}

describe('a local broker with SASL_SSL, mutual TLS and ACLs', () => {
  test('a SCRAM-SHA-512 user logs in, and produces and consumes once an ACL allows it', async () => {
    const topic = uniqueName('secured-orders');
    const group = uniqueName('secured-orders-group');
    await createTopic(topic);
    const client = scramClient('orders-agent', ordersPassword);

    // Logged in, but nothing granted: the broker refuses the topic.
    expect(protocolErrorType(await produceOnce(client, topic, 'too early'))).toBe('TOPIC_AUTHORIZATION_FAILED');

    await grant('orders-agent', topic, [AclOperationTypes.WRITE, AclOperationTypes.READ], group);
    // The authorizer applies the new ACLs from the metadata log a moment after createAcls returns.
    await waitFor(async () => (await produceOnce(client, topic, 'order-1')) === undefined, {
      description: 'orders-agent to be allowed to produce',
    });

    const consumer = client.consumer({ groupId: group });
    cleanups.push(() => consumer.disconnect());
    const received: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        received.push(message.value?.toString() ?? '');
      },
    });
    await waitFor(() => received.includes('order-1'), { description: 'order-1 to be consumed', timeoutMs: 20_000 });
    await consumer.disconnect();
  });

  test('a wrong password is refused with a SASL authentication error', async () => {
    const admin = scramClient('orders-agent', `${ordersPassword}-wrong`, { retry: { retries: 0 } }).admin();
    const error = await admin.connect().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await admin.disconnect().catch(() => undefined);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('KafkaJSSASLAuthenticationError');
    expect((error as Error).message).toMatch(/SASL SCRAM SHA512 authentication failed/);
  });

  test('a user no ACL names is refused the topic: TOPIC_AUTHORIZATION_FAILED', async () => {
    const topic = uniqueName('secured-idle');
    await createTopic(topic);
    const error = await produceOnce(scramClient('idle-agent', idlePassword), topic, 'nope');
    expect(protocolErrorType(error)).toBe('TOPIC_AUTHORIZATION_FAILED');
  });

  test('a client certificate for CN=x connects over mutual TLS as User:x, and its ACLs apply', async () => {
    const topic = uniqueName('secured-mtls');
    await createTopic(topic);
    const certificate = await kafka.issueClientCertificate('mtls-agent');
    expect((await stat(certificate.keyPath)).mode & 0o777).toBe(0o600);
    const client = rawKafkajsWith({
      brokers: kafka.mtlsBrokers,
      clientId: uniqueName('mtls-agent'),
      ssl: {
        ca,
        cert: await readFile(certificate.certPath, 'utf8'),
        key: await readFile(certificate.keyPath, 'utf8'),
      },
    });

    expect(protocolErrorType(await produceOnce(client, topic, 'too early'))).toBe('TOPIC_AUTHORIZATION_FAILED');
    await grant('mtls-agent', topic, [AclOperationTypes.WRITE]);
    await waitFor(async () => (await produceOnce(client, topic, 'by certificate')) === undefined, {
      description: 'User:mtls-agent to be allowed to produce',
    });

    // The same principal as the SCRAM user of that name: a certificate for CN=orders-agent gets the
    // ACLs granted to User:orders-agent, and a topic granted to nobody stays closed to it.
    const ordersTopic = uniqueName('secured-shared-principal');
    await createTopic(ordersTopic);
    await grant('orders-agent', ordersTopic, [AclOperationTypes.WRITE]);
    const ordersCertificate = await kafka.issueClientCertificate('orders-agent');
    const ordersByCertificate = rawKafkajsWith({
      brokers: kafka.mtlsBrokers,
      clientId: uniqueName('orders-agent-mtls'),
      ssl: {
        ca,
        cert: await readFile(ordersCertificate.certPath, 'utf8'),
        key: await readFile(ordersCertificate.keyPath, 'utf8'),
      },
    });
    await waitFor(async () => (await produceOnce(ordersByCertificate, ordersTopic, 'same principal')) === undefined, {
      description: 'a CN=orders-agent certificate to act as User:orders-agent',
    });
    expect(protocolErrorType(await produceOnce(ordersByCertificate, topic, 'not mine'))).toBe(
      'TOPIC_AUTHORIZATION_FAILED',
    );
  });

  test('the broker certificate name is reserved: no client certificate or SCRAM user may take it', async () => {
    await expect(kafka.issueClientCertificate(kafka.admin.principal)).rejects.toThrow(/super user/);
    await expect(
      kafka.addScramUsers([{ name: kafka.admin.principal, mechanism: 'SCRAM-SHA-512', password: 'x' }]),
    ).rejects.toThrow(/super user/);
  });

  test('there is no plaintext listener: a client without TLS gets no answer on either port', async () => {
    for (const brokers of [kafka.brokers, kafka.mtlsBrokers]) {
      const admin = rawKafkajsWith({
        brokers,
        clientId: uniqueName('plaintext'),
        connectionTimeout: 1_000,
        requestTimeout: 2_000,
        retry: { retries: 0 },
      }).admin();
      await expect(admin.connect()).rejects.toThrow();
      await admin.disconnect().catch(() => undefined);
    }

    // And the broker says so itself: no listener maps to PLAINTEXT or SASL_PLAINTEXT, and ACLs are enforced.
    const admin = superUser.admin();
    await admin.connect();
    try {
      const { resources } = await admin.describeConfigs({
        resources: [
          {
            type: 4 /* BROKER */,
            name: '1',
            configNames: ['listener.security.protocol.map', 'listeners', 'authorizer.class.name'],
          },
        ],
        includeSynonyms: false,
      });
      const configs = new Map(resources[0]?.configEntries.map((entry) => [entry.configName, entry.configValue]));
      expect(configs.get('listener.security.protocol.map')).toBe('CLIENTS:SASL_SSL,MTLS:SSL,CONTROLLER:SSL');
      expect(configs.get('listeners')).not.toMatch(/PLAINTEXT/);
      expect(configs.get('authorizer.class.name')).toBe('org.apache.kafka.metadata.authorizer.StandardAuthorizer');
    } finally {
      await admin.disconnect();
    }
  });

  test('no password is in any process argv, the broker log or the progress lines', async () => {
    // A user added while /proc is watched: the SCRAM tool's JVM is seen running, without the password.
    const latePassword = `late-${randomBytes(12).toString('hex')}`;
    passwords.push(latePassword);
    const seen: string[] = [];
    let adding = true;
    const added = kafka
      .addScramUsers([{ name: 'late-agent', mechanism: 'SCRAM-SHA-256', password: latePassword }])
      .finally(() => {
        adding = false;
      });
    while (adding) {
      seen.push(...(await commandLines()));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await added;
    seen.push(...(await commandLines()));

    expect(seen.some((argv) => argv.includes('ScramUsers.java'))).toBe(true);
    expect(
      seen.some((argv) => argv.includes('kafka.Kafka') && argv.includes(kafka.caPath.replace(/tls\/ca\.pem$/, ''))),
    ).toBe(true);
    const log = await readFile(join(logDir, 'broker.log'), 'utf8').catch(() => '');
    for (const password of passwords) {
      expect(seen.filter((argv) => argv.includes(password))).toEqual([]);
      expect(log).not.toContain(password);
      expect(progress.join('\n')).not.toContain(password);
    }
    expect(warnings.map((warning) => (warning as { code?: string }).code)).not.toContain('DEP0123');
    // And the late user can log in.
    const admin = scramClient('late-agent', latePassword).admin();
    await admin.connect();
    await admin.disconnect();
  });
});

/** Every readable process's command line, arguments joined by spaces. */
async function commandLines(): Promise<string[]> {
  const lines: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
    if (cmdline) lines.push(cmdline.replaceAll('\0', ' '));
  }
  return lines;
}
