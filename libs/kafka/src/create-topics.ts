import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { BatonError } from '@baton/errors';
import { kafkaConnectError, kafkaSecurityError } from './kafka-errors.js';
import { kafkaTarget, kafkajsClient, type KafkaClient } from './kafka-client.js';
import { kafkajsSecurity } from './security/kafkajs-security.js';
import { deadLetterTopic, processedIdsTopic } from './topics/topic-names.js';

export interface TopicSpec {
  topic: string;
  /** @default the broker's num.partitions */
  numPartitions?: number;
  /** @default the broker's default.replication.factor */
  replicationFactor?: number;
  configEntries?: { name: string; value: string }[];
}

/** How long processed ids are remembered: a duplicate older than this is no longer recognised. */
export const DEFAULT_DEDUPE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000; // 7 days

export interface ConsumerTopicsOptions {
  numPartitions: number;
  replicationFactor: number;
  /** @default 7 days */
  dedupeRetentionMs?: number;
}

/**
 * A consumed topic with its companions: `<topic>.dlq`, and `<topic>.processed`, which must have the
 * same partition count, since the owner of source partition p keeps its ids in partition p.
 */
export function consumerTopicSpecs(topic: string, options: ConsumerTopicsOptions): TopicSpec[] {
  const { numPartitions, replicationFactor } = options;
  return [
    { topic, numPartitions, replicationFactor },
    { topic: deadLetterTopic(topic), numPartitions, replicationFactor },
    {
      topic: processedIdsTopic(topic),
      numPartitions,
      replicationFactor,
      configEntries: [
        { name: 'cleanup.policy', value: 'compact,delete' },
        { name: 'retention.ms', value: String(options.dedupeRetentionMs ?? DEFAULT_DEDUPE_RETENTION_MS) },
      ],
    },
  ];
}

/** A topic that keeps the latest record of each key: the changelog of a state a service reads back. */
export function compactedTopicSpec(
  topic: string,
  sizing: { numPartitions: number; replicationFactor: number },
): TopicSpec {
  return { topic, ...sizing, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] };
}

/**
 * `spec` with min.insync.replicas set to a majority of its replicas when it has three or more and
 * names none itself: a write acknowledged by all in-sync replicas (acks=all, what every Baton
 * producer asks) is then on a majority, so a broker lost afterwards loses none of it, and one
 * broker down still leaves the topic writable. Below three replicas the broker's own default
 * stands (there is no majority that also survives a broker).
 */
export function withMinInsyncReplicas(spec: TopicSpec): TopicSpec {
  const replicas = spec.replicationFactor;
  if (replicas === undefined || replicas < 3) return spec;
  if (spec.configEntries?.some((entry) => entry.name === 'min.insync.replicas')) return spec;
  return {
    ...spec,
    configEntries: [
      ...(spec.configEntries ?? []),
      { name: 'min.insync.replicas', value: String(Math.floor(replicas / 2) + 1) },
    ],
  };
}

/** How long topics get to have a leader for every partition. */
const TOPIC_READY_TIMEOUT_MS = 30_000;

/**
 * Creates the topics that do not exist yet and waits until each partition of each topic has a
 * leader, so a producer can write at once. Services starting together race to create the same
 * topics; the loser's metadata may briefly answer "does not host this topic-partition", which
 * kafkajs's own wait does not absorb (tulios/kafkajs#1222), so readiness is polled here.
 * Resolves false when every topic already existed.
 *
 * Being a service's first contact with the cluster, it stops a start that cannot succeed with the
 * cause named: KAFKA_AUTH_FAILED (SASL refused, TLS failed), KAFKA_NOT_AUTHORIZED (ACLs), or
 * KAFKA_UNAVAILABLE. kafkajs does not retry a refused SASL login, so a wrong password fails at
 * once; a failed TLS handshake is retried as a connection error, some 10 s, before it fails.
 */
export async function createTopics(kafka: KafkaClient, topics: TopicSpec[]): Promise<boolean> {
  const target = kafkaTarget(kafka);
  const admin = kafkajsClient(kafka).admin();
  try {
    await admin.connect();
  } catch (error) {
    await admin.disconnect().catch(() => undefined);
    throw kafkaConnectError(error, target);
  }
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((spec) => !existing.has(spec.topic)).map(withMinInsyncReplicas);
    // kafkajs answers false, not an error, when another service created them first.
    const created = missing.length > 0 && (await admin.createTopics({ topics: missing, waitForLeaders: false }));
    const names = topics.map((spec) => spec.topic);
    const deadline = Date.now() + TOPIC_READY_TIMEOUT_MS;
    for (;;) {
      try {
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics: names });
        const ready = metadata.every(
          (topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0),
        );
        if (ready && metadata.length === names.length && (await everyBrokerKnows(kafka, admin, names))) return created;
      } catch (error) {
        // Waiting does not grant an ACL.
        if (Date.now() >= deadline || kafkaSecurityError(error, target) !== undefined) throw error;
      }
      if (Date.now() >= deadline) {
        throw new BatonError(
          'KAFKA_UNAVAILABLE',
          `topics ${names.join(', ')} have no leaders after ${TOPIC_READY_TIMEOUT_MS} ms`,
        );
      }
      await sleep(100);
    }
  } catch (error) {
    throw kafkaSecurityError(error, target) ?? error;
  } finally {
    await admin.disconnect();
  }
}

/**
 * Whether each broker of a cluster of several has every partition of `topics`, with its leader, in
 * its own metadata. A topic just created reaches the brokers one by one, and one that has not got
 * it yet answers a metadata request for it with UNKNOWN_TOPIC_OR_PARTITION, which kafkajs does not
 * retry when a consumer subscribes: a service starting beside the one that created the topic
 * failed its start so on three brokers. Each broker is asked through a client seeded with it
 * alone, which kafkajs asks first (its seed connection is the only one open).
 */
async function everyBrokerKnows(kafka: KafkaClient, admin: Admin, topics: string[]): Promise<boolean> {
  const { brokers } = await admin.describeCluster();
  if (brokers.length < 2) return true;
  const target = kafkaTarget(kafka);
  const views = await Promise.all(
    brokers.map(async ({ host, port }) => {
      const own = new Kafka({
        brokers: [`${host}:${port}`],
        clientId: 'baton-topic-check',
        logLevel: logLevel.NOTHING,
        retry: { retries: 0 },
        ...kafkajsSecurity(target.security),
      }).admin();
      try {
        await own.connect();
        const { topics: metadata } = await own.fetchTopicMetadata({ topics });
        return (
          metadata.length === topics.length &&
          metadata.every(
            (topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0),
          )
        );
      } catch {
        return false;
      } finally {
        await own.disconnect().catch(() => undefined);
      }
    }),
  );
  return views.every(Boolean);
}
