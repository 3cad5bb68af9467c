import type { Kafka } from 'kafkajs';
import type { KafkaTarget } from './kafka-errors.js';

let kafkajsOf: (client: KafkaClient) => Kafka;
let targetOf: (client: KafkaClient) => KafkaTarget;

/**
 * A connection to a Kafka cluster, as Baton's services hold one: an opaque handle that the readers,
 * consumers, producers and admin functions of @baton/kafka take. The kafkajs client stays inside
 * this lib (`kafkajsClient`, not exported from the index), so no service drives kafkajs itself and
 * the client can be replaced here alone.
 *
 * `createKafka` makes one. A test or a benchmark that acts as a user's own client and brings a
 * kafkajs client of its own (instrumented, say) may wrap it with the constructor; nothing else
 * outside this lib can, since only this lib imports kafkajs (eslint.config.js).
 */
export class KafkaClient {
  readonly #kafkajs: Kafka;
  readonly #target: KafkaTarget;

  /** `target`: the brokers and security `kafkajs` was made with, which error messages name. */
  constructor(kafkajs: Kafka, target: KafkaTarget = { brokers: [] }) {
    this.#kafkajs = kafkajs;
    this.#target = target;
  }

  static {
    kafkajsOf = (client) => client.#kafkajs;
    targetOf = (client) => client.#target;
  }
}

/** The kafkajs client behind `client`: for this lib's internals only, never exported from its index. */
export function kafkajsClient(client: KafkaClient): Kafka {
  return kafkajsOf(client);
}

/** The cluster `client` was made for, for this lib's error messages. */
export function kafkaTarget(client: KafkaClient): KafkaTarget {
  return targetOf(client);
}
