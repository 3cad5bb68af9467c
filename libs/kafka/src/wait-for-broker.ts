import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { BatonError } from '@baton/errors';
import { kafkaSecurityError } from './kafka-errors.js';
import type { KafkaSecurity } from './security/kafka-security.js';
import { kafkajsSecurity } from './security/kafkajs-security.js';

export interface BrokerWaitProgress {
  attempt: number;
  elapsedMs: number;
  lastError: unknown;
}

export interface WaitForBrokerOptions {
  /** @default 30_000 */
  timeoutMs?: number;
  /** Called after each failed attempt; callers decide how often to tell a person. */
  onProgress?: (progress: BrokerWaitProgress) => void;
  /** Stops waiting early, e.g. when the broker process being waited on has exited. */
  signal?: AbortSignal;
  /** How to connect: TLS (a CA, a client certificate) and SASL. @default plaintext */
  security?: KafkaSecurity;
}

export interface ClusterDescription {
  clusterId: string;
  brokers: { nodeId: number; host: string; port: number }[];
}

const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 1_000;

/**
 * Resolves once a broker answers a metadata request listing at least one broker. Each attempt
 * uses a fresh admin client that does not retry by itself, so the deadline here is the only one.
 * A refused login, a failed TLS handshake or a denied ACL does not mend with waiting: it throws at
 * once, KAFKA_AUTH_FAILED or KAFKA_NOT_AUTHORIZED (see kafka-errors.ts).
 */
export async function waitForBroker(
  brokers: string[],
  options: WaitForBrokerOptions = {},
): Promise<ClusterDescription> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  const kafka = new Kafka({
    brokers,
    clientId: 'baton-wait-for-broker',
    // Refused connections are the expected answer while a broker starts; they are not news.
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: 5_000,
    retry: { retries: 0 },
    ...kafkajsSecurity(options.security),
  });
  let backoffMs = FIRST_BACKOFF_MS;
  let lastError: unknown;
  for (let attempt = 1; ; attempt += 1) {
    options.signal?.throwIfAborted();
    const admin = kafka.admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length > 0) return cluster;
      lastError = new Error('the cluster answered with no live broker');
    } catch (error) {
      lastError = error;
      const security = kafkaSecurityError(error, { brokers, security: options.security });
      if (security !== undefined) throw security;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    const now = Date.now();
    if (now >= deadline) {
      throw new BatonError(
        'KAFKA_UNAVAILABLE',
        `Kafka at ${brokers.join(',')} did not answer a metadata request within ${timeoutMs} ms.`,
        {
          cause: lastError,
          details: { brokers, attempts: attempt },
        },
      );
    }
    options.onProgress?.({ attempt, elapsedMs: now - startedAt, lastError });
    await sleep(
      Math.min(backoffMs, deadline - now),
      undefined,
      options.signal ? { signal: options.signal } : undefined,
    );
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  }
}
