import type { Kafka } from 'kafkajs';

let kafkajsOf: (client: KafkaClient) => Kafka;

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

  constructor(kafkajs: Kafka) {
    this.#kafkajs = kafkajs;
  }

  static {
    kafkajsOf = (client) => client.#kafkajs;
  }
}

/** The kafkajs client behind `client`: for this lib's internals only, never exported from its index. */
export function kafkajsClient(client: KafkaClient): Kafka {
  return kafkajsOf(client);
}
