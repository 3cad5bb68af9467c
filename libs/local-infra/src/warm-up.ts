import { createKafka } from '@baton/kafka';

/**
 * A fresh broker creates __consumer_offsets on the first group-coordinator lookup and answers
 * "coordinator not available" until it has, which kafkajs logs as an error before retrying. One
 * lookup here makes that happen during start-up, quietly, rather than in the first test that
 * uses a consumer group.
 */
export async function warmUpGroupCoordinator(brokers: string[]): Promise<void> {
  const admin = createKafka({ brokers, clientId: 'baton-local-infra', logLevel: 'nothing' }).admin();
  await admin.connect();
  try {
    await admin.describeGroups(['baton-warm-up']);
  } finally {
    await admin.disconnect();
  }
}
