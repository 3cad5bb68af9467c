import { kafkajsProducer } from '../create-kafka.js';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';
import { coordinatorPartition } from './replication.js';

/**
 * Makes a fresh broker create its internal topics now: __consumer_offsets at the first group
 * coordinator lookup (a describe of a group), __transaction_state at the first transactional
 * producer (one empty transaction, aborted). Until it has, a broker answers "coordinator not
 * available" or "loading", which kafkajs logs as errors before retrying. On a cluster whose
 * coordinator topics have `coordinatorPartitions` partitions, each partition is loaded by the
 * broker that leads it, so one id per partition is warmed up (`<idPrefix>`, `<idPrefix>-1`, …,
 * chosen by where Kafka places them).
 */
export async function warmUpCoordinators(
  kafka: KafkaClient,
  idPrefix: string,
  coordinatorPartitions = 1,
): Promise<void> {
  const ids = idsCoveringPartitions(idPrefix, coordinatorPartitions);
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  try {
    for (const id of ids) await admin.describeGroups([id]);
  } finally {
    await admin.disconnect();
  }
  for (const id of ids) {
    const producer = kafkajsProducer(kafka, { transactionalId: id, idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      await (await producer.transaction()).abort();
    } finally {
      await producer.disconnect();
    }
  }
}

/** Ids starting with `prefix`, one placed in each of `partitions` coordinator partitions (coordinatorPartition). */
export function idsCoveringPartitions(prefix: string, partitions: number): string[] {
  const byPartition = new Map<number, string>();
  for (let index = 0; byPartition.size < partitions; index += 1) {
    const id = index === 0 ? prefix : `${prefix}-${index}`;
    const partition = coordinatorPartition(id, partitions);
    if (!byPartition.has(partition)) byPartition.set(partition, id);
  }
  return [...byPartition.entries()].sort(([a], [b]) => a - b).map(([, id]) => id);
}
