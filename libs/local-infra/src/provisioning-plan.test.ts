import { describe, expect, test } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import {
  describePlan,
  parseBrokerList,
  parseRegistryUrl,
  planProvisioning,
  type ProvisioningProbes,
} from './provisioning-plan.js';

function probes({ docker = false, missing = [] as string[] } = {}): ProvisioningProbes & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    isContainerRuntimeAvailable: async () => {
      asked.push('docker');
      return docker;
    },
    findMissingJavaTools: () => {
      asked.push('java');
      return missing;
    },
  };
}

describe('planProvisioning', () => {
  test('uses both services the environment names and probes nothing', async () => {
    const checks = probes();

    const plan = await planProvisioning(
      { KAFKA_BROKERS: 'k1:9092,k2:9092', SCHEMA_REGISTRY_URL: 'http://registry:8081/' },
      checks,
    );

    expect(plan).toEqual({
      kafka: { source: 'environment', brokers: ['k1:9092', 'k2:9092'] },
      registry: { source: 'environment', url: 'http://registry:8081' },
    });
    expect(checks.asked).toEqual([]);
  });

  test('prefers containers when a Docker engine answers, without looking for Java', async () => {
    const checks = probes({ docker: true, missing: ['Java 17+'] });

    expect(await planProvisioning({}, checks)).toEqual({
      kafka: { source: 'containers' },
      registry: { source: 'containers' },
    });
    expect(checks.asked).toEqual(['docker']);
  });

  test('falls back to local JVMs when there is no Docker engine', async () => {
    expect(await planProvisioning({}, probes())).toEqual({
      kafka: { source: 'local-jvm' },
      registry: { source: 'local-jvm' },
    });
  });

  test('starts only the registry when the environment names only the brokers', async () => {
    expect(await planProvisioning({ KAFKA_BROKERS: 'k1:9092' }, probes())).toEqual({
      kafka: { source: 'environment', brokers: ['k1:9092'] },
      registry: { source: 'local-jvm' },
    });
  });

  test('starts only Kafka when the environment names only the registry', async () => {
    expect(
      await planProvisioning({ SCHEMA_REGISTRY_URL: 'https://r.example/apis/ccompat/v7' }, probes({ docker: true })),
    ).toEqual({
      kafka: { source: 'containers' },
      registry: { source: 'environment', url: 'https://r.example/apis/ccompat/v7' },
    });
  });

  test('without environment, Docker, Java or Maven, says what to install', async () => {
    const error = await planProvisioning(
      {},
      probes({ missing: ['Java 17+ (no working `java` on PATH)', 'Maven (no working `mvn` on PATH)'] }),
    ).catch((caught: unknown) => caught);

    expect(hasErrorCode(error, 'INFRA_UNAVAILABLE')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(
      'No Kafka (KAFKA_BROKERS is not set) and no schema registry (SCHEMA_REGISTRY_URL is not set) can be provisioned',
    );
    expect(message).toContain('lacks Java 17+ (no working `java` on PATH) and Maven (no working `mvn` on PATH)');
    expect(message).toContain('Install Java 17+ and Maven 3.8+');
    expect(message).toContain('or start a Docker engine');
    expect(message).toContain('Node 20.19+');
  });

  test('a malformed variable is refused before anything is probed', async () => {
    const checks = probes();

    const error = await planProvisioning({ KAFKA_BROKERS: 'localhost' }, checks).catch((caught: unknown) => caught);

    expect(hasErrorCode(error, 'CONFIG_INVALID')).toBe(true);
    expect(checks.asked).toEqual([]);
  });
});

describe('parseBrokerList', () => {
  test('splits on commas and trims, IPv6 literals included', () => {
    expect(parseBrokerList(' 127.0.0.1:9092, kafka-2.internal:19092 ,[::1]:9093,')).toEqual([
      '127.0.0.1:9092',
      'kafka-2.internal:19092',
      '[::1]:9093',
    ]);
  });

  test('unset or blank means not given', () => {
    expect(parseBrokerList(undefined)).toBeUndefined();
    expect(parseBrokerList('  ')).toBeUndefined();
  });

  test.each(['localhost', 'localhost:', 'localhost:0', 'localhost:70000', 'http://localhost:9092', '::1:9092'])(
    'refuses %j',
    (value) => {
      expect(() => parseBrokerList(value)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    },
  );
});

describe('parseRegistryUrl', () => {
  test('keeps the path and drops a trailing slash', () => {
    expect(parseRegistryUrl('http://127.0.0.1:8080/apis/ccompat/v7/')).toBe('http://127.0.0.1:8080/apis/ccompat/v7');
  });

  test.each(['registry:8081', 'ftp://registry/x', 'not a url'])('refuses %j', (value) => {
    expect(() => parseRegistryUrl(value)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});

test('describePlan says where each service comes from', () => {
  expect(describePlan({ kafka: { source: 'local-jvm' }, registry: { source: 'local-jvm' } })).toBe(
    'using Kafka started as a local JVM and a schema registry started as a local JVM',
  );
  expect(
    describePlan({
      kafka: { source: 'environment', brokers: ['k1:9092', 'k2:9092'] },
      registry: { source: 'containers' },
    }),
  ).toBe('using Kafka at k1:9092,k2:9092 (KAFKA_BROKERS) and a schema registry started in a container');
  expect(
    describePlan({ kafka: { source: 'local-jvm' }, registry: { source: 'containers' } }, { securedKafka: true }),
  ).toBe(
    'using Kafka started as a local JVM, secured (SASL_SSL and mutual TLS only, ACLs enforced) and a schema registry started in a container',
  );
  expect(describePlan({ kafka: { source: 'local-jvm' }, registry: { source: 'local-jvm' } }, { kafkaNodes: 3 })).toBe(
    'using Kafka started as a cluster of 3 local JVMs (every topic replicated 3 times) and a schema registry started as a local JVM',
  );
});
