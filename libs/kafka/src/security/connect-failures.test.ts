import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonError } from '@baton/errors';
import { createCertificateAuthority } from '@baton/local-infra';
import { createKafka } from '../create-kafka.js';
import { createTopics } from '../create-topics.js';
import { waitForBroker } from '../wait-for-broker.js';
import { startFakeSaslBroker } from './fake-sasl-broker.test-helper.js';
import type { KafkaSecurity } from './kafka-security.js';

const PASSWORD = 'sasl-Pa55word-never-shown';
const plain: KafkaSecurity = { sasl: { mechanism: 'PLAIN', username: 'baton', password: PASSWORD } };
const TOPICS = [{ topic: 'baton.inbound', numPartitions: 1, replicationFactor: 1 }];

async function failure(promise: Promise<unknown>): Promise<BatonError> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as BatonError,
  );
}

/** A client as a service makes one, its kafkajs logs kept out of the test output. */
function client(brokers: string[], security: KafkaSecurity) {
  return createKafka({ brokers, clientId: 'connect-failures', security, logLevel: 'nothing' });
}

describe('a refused SASL login', () => {
  it('stops createTopics at once with KAFKA_AUTH_FAILED: kafkajs does not retry it', async () => {
    const broker = await startFakeSaslBroker(['PLAIN']);
    try {
      const startedAt = Date.now();
      const error = await failure(createTopics(client([broker.address], plain), TOPICS));
      expect(Date.now() - startedAt).toBeLessThan(3_000);
      expect(broker.authenticateAttempts).toBe(1);
      expect(error.code).toBe('KAFKA_AUTH_FAILED');
      expect(error.message).toContain(`Kafka at ${broker.address} refused SASL PLAIN as user "baton"`);
      expect(error.message).toContain('Invalid username or password');
      expect(error.message).not.toContain(PASSWORD);
      expect(JSON.stringify(error)).not.toContain(PASSWORD);
    } finally {
      await broker.close();
    }
  });

  it('sends the password only inside the SASL exchange', async () => {
    const broker = await startFakeSaslBroker(['PLAIN']);
    try {
      await failure(createTopics(client([broker.address], plain), TOPICS));
      expect(broker.authenticateBytes.join('')).toContain(PASSWORD);
    } finally {
      await broker.close();
    }
  });

  it('names the mechanism when the brokers do not enable it', async () => {
    const broker = await startFakeSaslBroker(['SCRAM-SHA-512']);
    try {
      const error = await failure(createTopics(client([broker.address], plain), TOPICS));
      expect(error.code).toBe('KAFKA_AUTH_FAILED');
      expect(error.message).toContain('PLAIN mechanism is not supported by the server');
      expect(broker.authenticateAttempts).toBe(0);
    } finally {
      await broker.close();
    }
  });

  it('stops waitForBroker at once rather than at its deadline', async () => {
    const broker = await startFakeSaslBroker(['PLAIN']);
    try {
      const startedAt = Date.now();
      const error = await failure(waitForBroker([broker.address], { timeoutMs: 20_000, security: plain }));
      expect(Date.now() - startedAt).toBeLessThan(3_000);
      expect(error.code).toBe('KAFKA_AUTH_FAILED');
    } finally {
      await broker.close();
    }
  });
});

describe('a failed TLS handshake', () => {
  let dir: string;
  let ca: string;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-kafka-tls-'));
    const authority = await createCertificateAuthority(dir, 'baton-test-ca');
    // A certificate naming the host localhost only (not 127.0.0.1).
    const issued = await authority.issue('localhost', { altNames: ['DNS:localhost'] });
    ca = await readFile(authority.caPath, 'utf8');
    // A listener with that certificate, signed by the test CA. The handshake is all that is
    // tested: after it, the listener hangs up, as a broker that is not ready might.
    const [cert, key] = await Promise.all([readFile(issued.certPath, 'utf8'), readFile(issued.keyPath, 'utf8')]);
    server = createServer({ cert, key }, (socket) => {
      socket.on('error', () => undefined);
      socket.destroy();
    });
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('stops waitForBroker at once when the certificate is not trusted (Node’s public CAs)', async () => {
    const error = await failure(waitForBroker([`localhost:${port}`], { timeoutMs: 20_000, security: { tls: {} } }));
    expect(error.code).toBe('KAFKA_AUTH_FAILED');
    // The listener presents its chain, the test CA's self-signed certificate last, as a broker does.
    expect(error.message).toContain("The brokers' certificate is not trusted (SELF_SIGNED_CERT_IN_CHAIN)");
    expect(error.message).toContain('KAFKA_SSL_CA_FILE');
  });

  it('stops waitForBroker when the certificate does not name the host', async () => {
    // Trusted, but the certificate names localhost and the client connects to 127.0.0.1.
    const security = { tls: { ca } };
    const error = await failure(waitForBroker([`127.0.0.1:${port}`], { timeoutMs: 20_000, security }));
    expect(error.code).toBe('KAFKA_AUTH_FAILED');
    expect(error.message).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(error.message).toContain('KAFKA_BROKERS');
  });

  it('connects once the CA is given and the host matches: the handshake passes', async () => {
    // The listener hangs up after the handshake, so the wait runs to its deadline: not a TLS failure.
    const security = { tls: { ca } };
    const error = await failure(waitForBroker([`localhost:${port}`], { timeoutMs: 1_500, security }));
    expect(error.code).toBe('KAFKA_UNAVAILABLE');
  });

  it('stops createTopics with KAFKA_AUTH_FAILED after kafkajs’s connection retries', async () => {
    const startedAt = Date.now();
    const error = await failure(createTopics(client([`localhost:${port}`], { tls: {} }), TOPICS));
    // kafkajs retries a connection error 5 times from 300 ms, doubling: some 10 s, not forever.
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect(error.code).toBe('KAFKA_AUTH_FAILED');
    expect(error.message).toContain('not trusted');
  }, 30_000);
});
