/**
 * kafkajs itself, for tests that act as a user's own Kafka client and need what @baton/kafka
 * deliberately does not offer: a consumer group that commits, a committed offset read back, records
 * deleted, a consumer paused by hand, uncommitted records and transaction markers, a client whose
 * consumers are instrumented. A test that only produces or reads records uses @baton/kafka's
 * RecordProducer and TopicReader instead. Only this file of test/ imports kafkajs
 * (eslint.config.js).
 *
 * The client is the fixed one Baton's services run on. @baton/kafka fixes kafkajs as it loads
 * (libs/kafka/src/kafkajs-fixes: replacements put into Node's module cache before kafkajs's own
 * modules load, and patches of its prototypes), and the install has one kafkajs, hoisted to the
 * root node_modules at the version libs/kafka pins (the root package.json names the same version),
 * so the `kafkajs` below is that same, fixed module, provided @baton/kafka loaded first: hence its
 * import first here. Keep it first; were kafkajs to load before it, @baton/kafka would throw when
 * it loads ("kafkajs was loaded before @baton/kafka could fix ...").
 */
import '@baton/kafka';
import kafkajs, { Kafka, logLevel, type KafkaConfig } from 'kafkajs';

export type { Kafka, KafkaConfig } from 'kafkajs';

/** A kafkajs client of its own, logging warnings and errors to the console. */
export function rawKafkajs(brokers: string[], clientId: string): Kafka {
  return new Kafka({ brokers, clientId, logLevel: logLevel.WARN });
}

// kafkajs is CommonJS: Node finds no named export for its ACL enums (vitest's transform did, so
// only `npm run chaos`, which runs under tsx, failed on them), so they come off the default export.
export const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;
export const kafkajsLogLevel = kafkajs.logLevel;

/** A kafkajs client configured in full: TLS, SASL, retries (a secured broker's tests). */
export function rawKafkajsWith(config: KafkaConfig): Kafka {
  return new Kafka({ logLevel: logLevel.NOTHING, ...config });
}
