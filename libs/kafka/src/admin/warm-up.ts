import { kafkajsProducer } from '../create-kafka.js';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

/**
 * Makes a fresh broker create its internal topics now: __consumer_offsets at the first group
 * coordinator lookup (a describe of the group `groupId`), __transaction_state at the first
 * transactional producer (the transactional id `groupId`, one empty transaction, aborted). Until it
 * has, a broker answers "coordinator not available" or "loading", which kafkajs logs as errors
 * before retrying.
 */
export async function warmUpCoordinators(kafka: KafkaClient, groupId: string): Promise<void> {
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  try {
    await admin.describeGroups([groupId]);
  } finally {
    await admin.disconnect();
  }
  const producer = kafkajsProducer(kafka, { transactionalId: groupId, idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await (await producer.transaction()).abort();
  } finally {
    await producer.disconnect();
  }
}
