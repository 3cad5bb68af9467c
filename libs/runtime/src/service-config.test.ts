import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSUMER_TUNING } from '@baton/kafka';
import { loadServiceConfig } from './service-config.js';

const env = { KAFKA_BROKERS: 'localhost:9092', SCHEMA_REGISTRY_URL: 'http://localhost:8081' };

describe('loadServiceConfig: consumer tuning', () => {
  it('takes the engine defaults when nothing is set', () => {
    expect(loadServiceConfig('s', env).consumerTuning).toEqual(DEFAULT_CONSUMER_TUNING);
  });

  it('reads concurrency, buffer and commit bounds, growing the buffer with a larger concurrency', () => {
    const tuning = loadServiceConfig('s', {
      ...env,
      BATON_MAX_CONCURRENCY: '8000',
      BATON_MAX_BUFFERED_BYTES: '1048576',
      BATON_COMMIT_INTERVAL_MS: '20',
      BATON_COMMIT_MAX_MESSAGES: '50',
      BATON_FETCH_WAIT_MS: '500',
      BATON_FETCH_MAX_BYTES_PER_PARTITION: '65536',
      BATON_DEDUPE_MAX_IDS_PER_PARTITION: '1000',
    }).consumerTuning;
    expect(tuning).toMatchObject({
      maxConcurrency: 8000,
      maxBuffered: 8000,
      maxBufferedBytes: 1_048_576,
      commitIntervalMs: 20,
      commitMaxMessages: 50,
      fetchWaitMs: 500,
      fetchMaxBytesPerPartition: 65_536,
      dedupeMaxIdsPerPartition: 1_000,
    });
  });

  it('reads the session timeout, and takes a fetch wait of at most a third of it', () => {
    expect(loadServiceConfig('s', { ...env, BATON_SESSION_TIMEOUT_MS: '6000' }).consumerTuning).toMatchObject({
      sessionTimeoutMs: 6000,
      fetchWaitMs: 2000,
    });
    expect(() =>
      loadServiceConfig('s', { ...env, BATON_SESSION_TIMEOUT_MS: '6000', BATON_FETCH_WAIT_MS: '2500' }),
    ).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        path: '/env/BATON_FETCH_WAIT_MS',
        message: 'BATON_FETCH_WAIT_MS must be an integer from 1 to 2000, not "2500"',
      }),
    );
    expect(() => loadServiceConfig('s', { ...env, BATON_SESSION_TIMEOUT_MS: '5999' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/BATON_SESSION_TIMEOUT_MS' }),
    );
  });

  it('refuses a buffer smaller than the concurrency, naming the variable', () => {
    expect(() => loadServiceConfig('s', { ...env, BATON_MAX_CONCURRENCY: '100', BATON_MAX_BUFFERED: '10' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/BATON_MAX_BUFFERED' }),
    );
  });
});

describe('loadServiceConfig: Kafka security', () => {
  it('connects in plaintext when nothing is set', () => {
    expect(loadServiceConfig('s', env).kafkaSecurity).toStrictEqual({});
  });

  it('reads TLS and SASL with kafkaSecurityFromEnv', () => {
    const config = loadServiceConfig('s', {
      ...env,
      KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: 'sales-agent',
      KAFKA_SASL_PASSWORD: 'not-shown',
    });
    expect(config.kafkaSecurity).toStrictEqual({
      tls: {},
      sasl: { mechanism: 'SCRAM-SHA-512', username: 'sales-agent', password: 'not-shown' },
    });
  });

  it('refuses an inconsistent setting, naming the variable', () => {
    expect(() => loadServiceConfig('s', { ...env, KAFKA_SECURITY_PROTOCOL: 'SASL_SSL' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/KAFKA_SASL_MECHANISM' }),
    );
  });
});
