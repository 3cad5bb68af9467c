/**
 * kafkajs itself, for what the bench compares Baton with or measures it by: the relays (the
 * raw-kafkajs baseline, by definition), the arrival observer (a consumer group tuned to note
 * arrivals: 8 partitions at once, a 50 ms wait, ready once joined) and the light load (sends that
 * overlap when one is slow, each its own request). The rest of the bench goes through @baton/kafka.
 * Only this file of bench/ imports kafkajs (eslint.config.js).
 *
 * The client is the fixed one Baton's services run on, so the comparison is of the same client.
 * @baton/kafka fixes kafkajs as it loads (libs/kafka/src/kafkajs-fixes: replacements put into
 * Node's module cache before kafkajs's own modules load, and patches of its prototypes), and the
 * install has one kafkajs, hoisted to the root node_modules at the version libs/kafka pins (the
 * root package.json names the same version), so the `kafkajs` below is that same, fixed module,
 * provided @baton/kafka loaded first: hence its import first here, which the service bundle keeps
 * (scripts/lib/service-bundle.ts requires kafkajs in module order). Keep it first; were kafkajs to
 * load before it, @baton/kafka would throw when it loads.
 */
import { sinkLogCreator, writeJsonToStderr } from '@baton/kafka';
import { Kafka, Partitioners, logLevel, type Producer, type ProducerConfig } from 'kafkajs';

export type { Consumer, Kafka, KafkaMessage, Producer } from 'kafkajs';

/**
 * A kafkajs client of its own, logging warnings and errors as Baton's clients do: a retry kafkajs
 * logs as an error although it is expected (a transaction begun while the broker still writes the
 * previous one's commit markers) is left out, so a clean bench prints no error.
 */
export function rawKafkajs(brokers: string[], clientId: string): Kafka {
  return new Kafka({
    brokers,
    clientId,
    logLevel: logLevel.WARN,
    logCreator: sinkLogCreator(writeJsonToStderr, logLevel.WARN),
  });
}

/** A kafkajs producer that partitions keyed records with murmur2, as Baton's producers do. */
export function rawProducer(kafka: Kafka, config: ProducerConfig = {}): Producer {
  return kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, ...config });
}
