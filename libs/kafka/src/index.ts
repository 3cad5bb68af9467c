export { createKafka, type CreateKafkaOptions } from './create-kafka.js';
export type { KafkaSecurity, KafkaTls, KafkaSasl, KafkaSaslMechanism } from './security/kafka-security.js';
export {
  kafkaSecurityFromEnv,
  KAFKA_SASL_MECHANISMS,
  KAFKA_SECURITY_PROTOCOLS,
  type KafkaSecurityProtocol,
} from './security/kafka-security-from-env.js';
export { kafkaConnectError, kafkaSecurityError, type KafkaTarget } from './kafka-errors.js';
// Baton's own handle on the cluster: kafkajs and its types stay inside this lib.
export { KafkaClient } from './kafka-client.js';
export { RecordProducer, type ProducerRecord, type ProducedBatch } from './record-producer.js';
export {
  createTopics,
  compactedTopicSpec,
  consumerTopicSpecs,
  DEFAULT_DEDUPE_RETENTION_MS,
  type ConsumerTopicsOptions,
  type TopicSpec,
} from './create-topics.js';
export {
  sinkLogCreator,
  writeJsonToStderr,
  type KafkaLogLevel,
  type KafkaLogRecord,
  type KafkaLogSink,
} from './log-records.js';
export {
  waitForBroker,
  type BrokerWaitProgress,
  type ClusterDescription,
  type WaitForBrokerOptions,
} from './wait-for-broker.js';
export {
  topicNames,
  deadLetterTopic,
  processedIdsTopic,
  isLegalTopicName,
  DEFAULT_TOPIC_PREFIX,
  type TopicNames,
} from './topics/topic-names.js';
export { readHeaders, recordHeaderOf, type ClientHeaders, type RecordHeaders } from './headers/record-headers.js';
export { hasHeaderNamed, headerNames, type EncodedHeaders, type HeaderNames } from './kafkajs-fixes/record-decoding.js';
export { encodeHeaderBlock, encodedHeaderStrings } from './headers/header-block.js';
export {
  cloudEventHeaders,
  readCloudEvent,
  CLOUDEVENTS_SPEC_VERSION,
  AVRO_CONTENT_TYPE,
  type CloudEventAttributes,
} from './headers/cloudevents-headers.js';
export { newTraceparent, childTraceparent, traceIdOf } from './headers/traceparent.js';
export {
  DLQ_HEADERS,
  deadLetterHeaders,
  readDeadLetterFacts,
  type DeadLetterFacts,
} from './headers/dead-letter-headers.js';
export { REPLAY_HEADERS, isReplay } from './headers/replay-headers.js';
export { ExactlyOnceConsumer, type ExactlyOnceConsumerOptions } from './consumer/exactly-once-consumer.js';
export { headerOf, type ConsumedRecord, type OutputRecord } from './consumer/consumed-record.js';
export type {
  MessageProcessor,
  DecodedMessage,
  ProcessingContext,
  DeadLetterContext,
} from './consumer/message-processor.js';
export type { ConsumerObserver, MessageLabels } from './consumer/consumer-events.js';
export { DEFAULT_BACKOFF, backoffDelayMs, type BackoffPolicy } from './consumer/backoff.js';
export {
  DEFAULT_CONSUMER_TUNING,
  DEFAULT_MAX_CONCURRENCY,
  SESSION_TIMEOUT_BOUNDS_MS,
  consumerTuning,
  type ConsumerTuning,
} from './consumer/consumer-tuning.js';
export { fetchEndOffsets } from './topics/end-offsets.js';
export { fetchTopicPartitions } from './topics/topic-partitions.js';
export {
  consumerLag,
  ConsumerLagReader,
  type CommittedOffset,
  type PartitionLag,
  type PartitionWatermarks,
} from './topics/consumer-lag.js';
export { TopicReader, READER_STOP_GRACE_MS, type TopicReaderOptions } from './reading/topic-reader.js';
export { BATCH_WINDOW_MS, LONG_POLL_MAX_WAIT_MS } from './reading/long-poll.js';
export { readerGroupId } from './reading/reader-group.js';
export { contextReaderGroupPrefix } from './context-store/chunk-reader.js';
export {
  describeConsumerGroups,
  listTopicNames,
  type ConsumerGroupStatus,
  type GroupMember,
} from './admin/consumer-groups.js';
export { deleteTopics } from './admin/delete-topics.js';
export { TopicLister } from './admin/topic-lister.js';
export { warmUpCoordinators } from './admin/warm-up.js';
export {
  describeReplicas,
  fullyReplicated,
  waitForInSyncReplicas,
  coordinatorOf,
  coordinatorPartition,
  COORDINATOR_TOPICS,
  type PartitionReplicas,
  type WaitForInSyncOptions,
} from './admin/replication.js';
export {
  applyAcls,
  CLUSTER_RESOURCE_NAME,
  type AclGrant,
  type AclOperation,
  type AclPatternType,
  type AclResourceType,
  type PrincipalAcls,
} from './admin/acls.js';
export { TransactionalSender, type SentRecord } from './transactional-sender.js';
export { ContextStore, type ContextStoreOptions, type PutContextOptions } from './context-store/context-store.js';
export { CONTEXT_HEADERS } from './context-store/chunk-headers.js';
export type { StoredContextRef } from './context-store/stored-context-ref.js';
