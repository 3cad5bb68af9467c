/**
 * The Kafka connection variables end to end, against a local broker with no plaintext listener
 * (startSecuredLocalKafka): kafkaSecurityFromEnv reads them, createKafka connects with them, and
 * createTopics, a service's first contact with the cluster, succeeds or stops with the cause named.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BatonError } from '@baton/errors';
import { applyAcls, createKafka, createTopics, kafkaSecurityFromEnv, type PrincipalAcls } from '@baton/kafka';
import { startSecuredLocalKafka, type SecuredLocalKafka } from '@baton/local-infra';
import { uniqueName } from './helpers/index.js';

const PREFIX = uniqueName('secured-env');
const password = randomBytes(18).toString('base64url');
let kafka: SecuredLocalKafka;
let dir: string;
let passwordFile: string;

/** May create and describe the test's topics, as a service may its own. */
function topicAcls(user: string): PrincipalAcls {
  return {
    service: user,
    principal: `User:${user}`,
    grants: [
      { resourceType: 'topic', patternType: 'prefixed', name: `${PREFIX}.`, operations: ['create', 'describe'] },
    ],
  };
}

async function failure(promise: Promise<unknown>): Promise<BatonError> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as BatonError,
  );
}

/** createTopics as a service calls it, the client made from `env` alone. */
function createTopicWith(env: Record<string, string>, brokers: string[]): Promise<boolean> {
  const client = createKafka({
    brokers,
    clientId: uniqueName('env'),
    security: kafkaSecurityFromEnv(env),
    logLevel: 'nothing',
  });
  return createTopics(client, [{ topic: uniqueName(`${PREFIX}.t`), numPartitions: 1, replicationFactor: 1 }]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-kafka-security-env-'));
  kafka = await startSecuredLocalKafka();
  await kafka.addScramUsers([
    { name: 'env-agent', mechanism: 'SCRAM-SHA-512', password },
    { name: 'no-acl-agent', mechanism: 'SCRAM-SHA-512', password },
  ]);
  const superUser = createKafka({ brokers: kafka.mtlsBrokers, clientId: 'acl-admin', security: kafka.admin.security });
  await applyAcls(superUser, [topicAcls('env-agent'), topicAcls('env-mtls')]);
  passwordFile = join(dir, 'password');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
}, 180_000);

afterAll(async () => {
  await kafka?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('SASL_SSL with SCRAM-SHA-512', () => {
  const scram = (user: string, file: () => string): Record<string, string> => ({
    KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
    KAFKA_SSL_CA_FILE: kafka.caPath,
    KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
    KAFKA_SASL_USERNAME: user,
    KAFKA_SASL_PASSWORD_FILE: file(),
  });

  test('logs in with the password from KAFKA_SASL_PASSWORD_FILE and creates a topic its ACLs allow', async () => {
    expect(
      await createTopicWith(
        scram('env-agent', () => passwordFile),
        kafka.brokers,
      ),
    ).toBe(true);
  });

  test('a wrong password stops at once with KAFKA_AUTH_FAILED, the password in no message', async () => {
    const wrong = `${password}-wrong`;
    const wrongFile = join(dir, 'wrong-password');
    await writeFile(wrongFile, wrong);
    const startedAt = Date.now();
    const error = await failure(
      createTopicWith(
        scram('env-agent', () => wrongFile),
        kafka.brokers,
      ),
    );
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(error.code).toBe('KAFKA_AUTH_FAILED');
    expect(error.message).toContain('refused SASL SCRAM-SHA-512 as user "env-agent"');
    for (const secret of [password, wrong]) {
      expect(error.message).not.toContain(secret);
      expect(JSON.stringify(error)).not.toContain(secret);
    }
  });

  test('a user without ACLs stops with KAFKA_NOT_AUTHORIZED', async () => {
    const error = await failure(
      createTopicWith(
        scram('no-acl-agent', () => passwordFile),
        kafka.brokers,
      ),
    );
    expect(error.code).toBe('KAFKA_NOT_AUTHORIZED');
    expect(error.message).toContain('TOPIC_AUTHORIZATION_FAILED');
  });

  test('without KAFKA_SSL_CA_FILE the local CA is not trusted: KAFKA_AUTH_FAILED names the variable', async () => {
    const publicCas = scram('env-agent', () => passwordFile);
    delete publicCas.KAFKA_SSL_CA_FILE;
    const error = await failure(createTopicWith(publicCas, kafka.brokers));
    expect(error.code).toBe('KAFKA_AUTH_FAILED');
    expect(error.message).toContain('KAFKA_SSL_CA_FILE');
  }, 30_000);
});

describe('SSL with a client certificate', () => {
  test('connects as the certificate’s CN and creates a topic its ACLs allow', async () => {
    const issued = await kafka.issueClientCertificate('env-mtls');
    const env = {
      KAFKA_SECURITY_PROTOCOL: 'SSL',
      KAFKA_SSL_CA_FILE: kafka.caPath,
      KAFKA_SSL_CERT_FILE: issued.certPath,
      KAFKA_SSL_KEY_FILE: issued.keyPath,
    };
    expect(await createTopicWith(env, kafka.mtlsBrokers)).toBe(true);
  });

  test('the broker refuses a client without a certificate: KAFKA_AUTH_FAILED', async () => {
    const env = { KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: kafka.caPath };
    const error = await failure(createTopicWith(env, kafka.mtlsBrokers));
    expect(error.code).toBe('KAFKA_AUTH_FAILED');
  }, 30_000);
});
