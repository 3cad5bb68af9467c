import { createKafka, warmUpCoordinators as warmUp, type KafkaClient, type KafkaSecurity } from '@baton/kafka';

/**
 * The client local-infra's own checks use (the warm-up, a rolling restart's wait for the replicas):
 * quiet, since what they wait out (a broker starting, a partition catching up) is not news.
 * `security`: how to connect to a secured broker (its super user's identity).
 */
export function localInfraClient(brokers: string[], security?: KafkaSecurity): KafkaClient {
  return createKafka({ brokers, clientId: 'baton-local-infra', logLevel: 'nothing', ...(security && { security }) });
}

/**
 * A fresh broker creates __consumer_offsets on the first group-coordinator lookup, and
 * __transaction_state on the first transactional producer, and answers "coordinator not
 * available" or "loading" until it has, which kafkajs logs as errors before retrying. Doing both
 * here makes that happen during start-up, quietly, rather than in the first test or service; on a
 * cluster, for every node's coordinator partitions. For a secured broker `security` is its super
 * user's identity: the warm-up describes a group and opens a transaction, which ACLs would
 * otherwise deny.
 */
export async function warmUpCoordinators(brokers: string[], security?: KafkaSecurity, nodes = 1): Promise<void> {
  // A local cluster's coordinator topics have a partition per node (server-properties.ts).
  await warmUp(localInfraClient(brokers, security), 'baton-warm-up', nodes);
}
