import { createKafka, warmUpCoordinators as warmUp, type KafkaSecurity } from '@baton/kafka';

/**
 * A fresh broker creates __consumer_offsets on the first group-coordinator lookup, and
 * __transaction_state on the first transactional producer, and answers "coordinator not
 * available" or "loading" until it has, which kafkajs logs as errors before retrying. Doing both
 * here makes that happen during start-up, quietly, rather than in the first test or service.
 * On a cluster, every node's coordinator partitions. `security`: how to connect, for a secured broker (a super user's identity: the warm-up describes
 * a group and opens a transaction, which ACLs would otherwise deny).
 */
export async function warmUpCoordinators(brokers: string[], security?: KafkaSecurity, nodes = 1): Promise<void> {
  await warmUp(
    createKafka({ brokers, clientId: 'baton-local-infra', logLevel: 'nothing', ...(security && { security }) }),
    'baton-warm-up',
    // A local cluster's coordinator topics have a partition per node (server-properties.ts).
    nodes,
  );
}
