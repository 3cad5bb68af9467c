import { createKafka, warmUpCoordinators as warmUp } from '@baton/kafka';

/**
 * A fresh broker creates __consumer_offsets on the first group-coordinator lookup, and
 * __transaction_state on the first transactional producer, and answers "coordinator not
 * available" or "loading" until it has, which kafkajs logs as errors before retrying. Doing both
 * here makes that happen during start-up, quietly, rather than in the first test or service.
 */
export async function warmUpCoordinators(brokers: string[]): Promise<void> {
  await warmUp(createKafka({ brokers, clientId: 'baton-local-infra', logLevel: 'nothing' }), 'baton-warm-up');
}
