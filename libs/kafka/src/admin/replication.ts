import { setTimeout as sleep } from 'node:timers/promises';
import { BatonError } from '@baton/errors';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

/** A partition's replicas as the cluster's metadata has them: node ids. */
export interface PartitionReplicas {
  topic: string;
  partition: number;
  /** -1 while the partition has no leader. */
  leader: number;
  replicas: number[];
  /** The replicas that have every acknowledged write: with fewer than min.insync.replicas, writes are refused. */
  isr: number[];
}

/** Every partition of every topic, internal ones (__consumer_offsets, __transaction_state) included. */
export async function describeReplicas(kafka: KafkaClient): Promise<PartitionReplicas[]> {
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata();
    return topics.flatMap(({ name, partitions }) =>
      partitions.map((partition) => ({
        topic: name,
        partition: partition.partitionId,
        leader: partition.leader,
        replicas: partition.replicas,
        isr: partition.isr,
      })),
    );
  } finally {
    await admin.disconnect();
  }
}

/** Whether every partition has a leader and all its replicas in sync. */
export function fullyReplicated(partitions: readonly PartitionReplicas[]): boolean {
  return partitions.every((partition) => partition.leader >= 0 && partition.isr.length === partition.replicas.length);
}

export interface WaitForInSyncOptions {
  /** @default 60_000 */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Resolves once every partition of the cluster is fully replicated (fullyReplicated): after a
 * broker came back, before the next one of a rolling restart may go, so no partition is left with
 * fewer in-sync replicas than its writes need. Throws KAFKA_UNAVAILABLE naming the partitions still
 * behind when the time is up.
 */
export async function waitForInSyncReplicas(kafka: KafkaClient, options: WaitForInSyncOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let behind: PartitionReplicas[] = [];
  let lastError: unknown;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      behind = (await describeReplicas(kafka)).filter((partition) => !fullyReplicated([partition]));
      if (behind.length === 0) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const names = behind
        .slice(0, 5)
        .map(
          ({ topic, partition, isr, replicas }) =>
            `${topic}-${partition} (in sync ${isr.join(',')} of ${replicas.join(',')})`,
        );
      throw new BatonError(
        'KAFKA_UNAVAILABLE',
        `partitions not fully replicated after ${timeoutMs} ms: ${names.join('; ') || 'the metadata could not be read'}`,
        { cause: lastError },
      );
    }
    await sleep(250);
  }
}

/** Kafka's internal topics whose partition's leader coordinates a group or a transactional id. */
export const COORDINATOR_TOPICS = { group: '__consumer_offsets', transaction: '__transaction_state' } as const;

/**
 * The partition of its coordinator topic that holds `id` (a group id, or a transactional id): the
 * broker that leads it is that group's or that producer's coordinator. Kafka places them by the
 * id's Java String.hashCode, made non-negative by masking the sign bit (Utils.abs), modulo the
 * topic's partitions.
 */
export function coordinatorPartition(id: string, partitions: number): number {
  let hash = 0;
  for (let index = 0; index < id.length; index += 1) hash = (Math.imul(hash, 31) + id.charCodeAt(index)) | 0;
  return (hash & 0x7fffffff) % partitions;
}

/** The node that coordinates `id` of `kind`, by the cluster's metadata; undefined while its partition has no leader. */
export function coordinatorOf(
  kind: keyof typeof COORDINATOR_TOPICS,
  id: string,
  replicas: readonly PartitionReplicas[],
): number | undefined {
  const topic = replicas.filter((partition) => partition.topic === COORDINATOR_TOPICS[kind]);
  if (topic.length === 0) return undefined;
  const partition = coordinatorPartition(id, topic.length);
  const leader = topic.find((candidate) => candidate.partition === partition)?.leader;
  return leader === undefined || leader < 0 ? undefined : leader;
}
