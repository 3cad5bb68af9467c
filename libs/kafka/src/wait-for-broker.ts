import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { BatonError } from '@baton/errors';

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
