import { createKafka, createTopics } from '@baton/kafka';
import { uniqueName } from './unique-name.js';

/** Creates a topic of its own for one test and resolves with its name once it has leaders. */
export async function createTestTopic(brokers: string[], prefix: string, numPartitions = 1): Promise<string> {
  const topic = uniqueName(prefix);
  await createTopics(createKafka({ brokers, clientId: uniqueName('create-topics') }), [
    { topic, numPartitions, replicationFactor: 1 },
  ]);
  return topic;
}
