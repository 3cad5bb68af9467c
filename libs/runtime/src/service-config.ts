import { hostname } from 'node:os';
import { BatonError } from '@baton/errors';
import { signingSettingsFromEnv, type SigningSettings } from '@baton/message-signing';
import { KEYRING_FILE_VARIABLE } from '@baton/field-encryption';
import { registryOptionsFromEnv, type SchemaRegistryOptions } from '@baton/wire';
import {
  DEFAULT_CONSUMER_TUNING,
  DEFAULT_TOPIC_PREFIX,
  SESSION_TIMEOUT_BOUNDS_MS,
  isLegalTopicName,
  kafkaSecurityFromEnv,
  type ConsumerTuning,
  type KafkaSecurity,
} from '@baton/kafka';

/** What every Baton service reads from its environment. */
export interface ServiceConfig {
  kafkaBrokers: string[];
  /** TLS and SASL of the Kafka connection, from kafkaSecurityFromEnv (KAFKA_SECURITY_PROTOCOL and the rest). */
  kafkaSecurity: KafkaSecurity;
  schemaRegistryUrl: string;
  /** The registry client's options: url, basic auth and CA, from registryOptionsFromEnv. */
  schemaRegistry: SchemaRegistryOptions;
  topicPrefix: string;
  /** Partitions of the topics a service creates. */
  partitions: number;
  replicationFactor: number;
  /** The HTTP port for /healthz, /readyz and /metrics; 0 picks a free one. */
  httpPort: number;
  httpHost: string;
  /** Names this process in logs, dead-letter headers and the consumer's reader group. */
  instanceId: string;
  /** Retries of a message that names none. */
  defaultRetryLimit: number;
  /** How the service's exactly-once consumers batch transactions and run tasks concurrently. */
  consumerTuning: Readonly<ConsumerTuning>;
  /** BATON_SIGNATURES, the trust store and the signing key, from signingSettingsFromEnv. */
  signing: SigningSettings;
  /**
   * The key ring file of personal data (BATON_PII_KEYRING_FILE): a service given it encrypts the
   * personal fields it writes and decrypts those it reads; without it, it passes ciphertext on as
   * it got it. Who may read personal data is who is given the file.
   */
  personalDataKeyRingFile: string | undefined;
}

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new BatonError('CONFIG_INVALID', `${name} is required`, { path: `/env/${name}` });
  return value;
}

/** An integer setting from `min` to `max`; absent or empty gives `fallback`, anything else out of range CONFIG_INVALID. */
export function integerSetting(
  env: Env,
  name: string,
  fallback: number,
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new BatonError('CONFIG_INVALID', `${name} must be an integer from ${min} to ${max}, not "${raw}"`, {
      path: `/env/${name}`,
    });
  }
  return value;
}

/**
 * Reads and checks the configuration once at start; a bad value stops the service with
 * CONFIG_INVALID naming the variable. The result is frozen.
 */
export function loadServiceConfig(service: string, env: Env = process.env): Readonly<ServiceConfig> {
  const kafkaBrokers = required(env, 'KAFKA_BROKERS')
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
  for (const broker of kafkaBrokers) {
    if (!/^[^:\s]+:\d{1,5}$/.test(broker)) {
      throw new BatonError('CONFIG_INVALID', `KAFKA_BROKERS entry "${broker}" is not host:port`, {
        path: '/env/KAFKA_BROKERS',
      });
    }
  }
  const schemaRegistryUrl = required(env, 'SCHEMA_REGISTRY_URL');
  if (!/^https?:\/\//.test(schemaRegistryUrl)) {
    throw new BatonError('CONFIG_INVALID', `SCHEMA_REGISTRY_URL must be an http(s) URL, not "${schemaRegistryUrl}"`, {
      path: '/env/SCHEMA_REGISTRY_URL',
    });
  }
  const topicPrefix = env.BATON_TOPIC_PREFIX?.trim() || DEFAULT_TOPIC_PREFIX;
  if (!isLegalTopicName(topicPrefix)) {
    throw new BatonError('CONFIG_INVALID', `BATON_TOPIC_PREFIX "${topicPrefix}" has characters Kafka refuses`, {
      path: '/env/BATON_TOPIC_PREFIX',
    });
  }
  return Object.freeze({
    kafkaBrokers,
    kafkaSecurity: kafkaSecurityFromEnv(env),
    schemaRegistryUrl,
    schemaRegistry: registryOptionsFromEnv(env, schemaRegistryUrl),
    topicPrefix,
    partitions: integerSetting(env, 'BATON_PARTITIONS', 6, 1, 10_000),
    replicationFactor: integerSetting(env, 'BATON_REPLICATION_FACTOR', 1, 1, 32),
    httpPort: integerSetting(env, 'HTTP_PORT', 0, 0, 65_535),
    httpHost: env.HTTP_HOST?.trim() || '127.0.0.1',
    instanceId: env.BATON_INSTANCE_ID?.trim() || `${service}-${hostname()}-${process.pid}`,
    defaultRetryLimit: integerSetting(env, 'BATON_DEFAULT_RETRY_LIMIT', 3, 0, 100),
    consumerTuning: consumerTuningOf(env),
    signing: signingSettingsFromEnv(env),
    personalDataKeyRingFile: env[KEYRING_FILE_VARIABLE]?.trim() || undefined,
  });
}

/** The exactly-once consumers' bounds; the buffer grows with a concurrency set above it. */
function consumerTuningOf(env: Env): Readonly<ConsumerTuning> {
  const defaults = DEFAULT_CONSUMER_TUNING;
  const maxConcurrency = integerSetting(env, 'BATON_MAX_CONCURRENCY', defaults.maxConcurrency, 1, 100_000);
  const sessionTimeoutMs = integerSetting(
    env,
    'BATON_SESSION_TIMEOUT_MS',
    defaults.sessionTimeoutMs,
    SESSION_TIMEOUT_BOUNDS_MS.min,
    SESSION_TIMEOUT_BOUNDS_MS.max,
  );
  return Object.freeze({
    maxConcurrency,
    maxBuffered: integerSetting(
      env,
      'BATON_MAX_BUFFERED',
      Math.max(defaults.maxBuffered, maxConcurrency),
      maxConcurrency,
      1_000_000,
    ),
    maxBufferedBytes: integerSetting(env, 'BATON_MAX_BUFFERED_BYTES', defaults.maxBufferedBytes, 1, 2 ** 31 - 1),
    commitIntervalMs: integerSetting(env, 'BATON_COMMIT_INTERVAL_MS', defaults.commitIntervalMs, 1, 60_000),
    commitMaxMessages: integerSetting(env, 'BATON_COMMIT_MAX_MESSAGES', defaults.commitMaxMessages, 1, 100_000),
    commitMaxBytes: defaults.commitMaxBytes,
    // At most a third of the session: kafkajs heartbeats between fetches.
    fetchWaitMs: integerSetting(
      env,
      'BATON_FETCH_WAIT_MS',
      Math.min(defaults.fetchWaitMs, Math.floor(sessionTimeoutMs / 3)),
      1,
      Math.floor(sessionTimeoutMs / 3),
    ),
    dedupeMaxIdsPerPartition: integerSetting(
      env,
      'BATON_DEDUPE_MAX_IDS_PER_PARTITION',
      defaults.dedupeMaxIdsPerPartition,
      1,
      100_000_000,
    ),
    fetchMaxBytesPerPartition: integerSetting(
      env,
      'BATON_FETCH_MAX_BYTES_PER_PARTITION',
      defaults.fetchMaxBytesPerPartition,
      1,
      2 ** 31 - 1,
    ),
    sessionTimeoutMs,
  });
}
