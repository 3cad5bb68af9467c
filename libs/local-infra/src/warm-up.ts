import { createKafka } from '@baton/kafka';

/**
 * A fresh broker creates __consumer_offsets on the first group-coordinator lookup, and
 * __transaction_state on the first transactional producer, and answers "coordinator not
 * available" or "loading" until it has, which kafkajs logs as errors before retrying. Doing both
 * here makes that happen during start-up, quietly, rather than in the first test or service.
 */
export async function warmUpCoordinators(brokers: string[]): Promise<void> {
  const kafka = createKafka({ brokers, clientId: 'baton-local-infra', logLevel: 'nothing' });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.describeGroups(['baton-warm-up']);
  } finally {
    await admin.disconnect();
  }
  const producer = kafka.producer({ transactionalId: 'baton-warm-up', idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await (await producer.transaction()).abort();
  } finally {
    await producer.disconnect();
  }
}
