import { consumerTopicSpecs, createTopics, type KafkaClient, type TopicNames } from '@baton/kafka';

export interface ControlTopicsOptions {
  kafka: KafkaClient;
  topics: TopicNames;
  numPartitions: number;
  replicationFactor: number;
}

/**
 * Creates an agent's control topic (and its consumer's companions) unless this process has: a
 * sender may ask an agent that has never run, whose topic does not exist yet, and a transaction
 * cannot write to a missing topic.
 */
export function controlTopicCreator(options: ControlTopicsOptions): (agentId: string) => Promise<void> {
  /** Control topics known to exist, or being created, by agent id. */
  const controlTopics = new Map<string, Promise<void>>();
  return (agentId) => {
    let ensured = controlTopics.get(agentId);
    if (ensured === undefined) {
      ensured = createTopics(
        options.kafka,
        consumerTopicSpecs(options.topics.agentControl(agentId), {
          numPartitions: options.numPartitions,
          replicationFactor: options.replicationFactor,
        }),
      ).then(() => undefined);
      // A failed attempt is not remembered: the next request tries again.
      ensured.catch(() => controlTopics.delete(agentId));
      controlTopics.set(agentId, ensured);
    }
    return ensured;
  };
}
