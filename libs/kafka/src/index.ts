export { createKafka, createProducer, type CreateKafkaOptions } from './create-kafka.js';
export { createTopics, type TopicSpec } from './create-topics.js';
export { writeJsonToStderr, type KafkaLogLevel, type KafkaLogRecord, type KafkaLogSink } from './log-records.js';
export {
  waitForBroker,
  type BrokerWaitProgress,
  type ClusterDescription,
  type WaitForBrokerOptions,
} from './wait-for-broker.js';
