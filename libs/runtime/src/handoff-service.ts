import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import {
  ConsumerLagReader,
  ExactlyOnceConsumer,
  consumerTopicSpecs,
  createKafka,
  createTopics,
  topicNames,
  type ConsumedRecord,
  type ConsumerObserver,
  type KafkaClient,
  type PartitionLag,
  type TopicNames,
} from '@baton/kafka';
import { compileValidators } from '@baton/protocol';
import {
  SchemaRegistryClient,
  serviceCodecs,
  type HandoffCodec,
  type LifecycleCodec,
  type OutcomeCodec,
  type StagedContextCodec,
  type WireStage,
} from '@baton/wire';
import { component, concurrently, type Component } from './chassis/component.js';
import { HttpServer } from './chassis/http-server.js';
import { Service } from './chassis/service.js';
import type { Handoff } from './handoff.js';
import type { HandoffProcessorOptions } from './handoff-processor.js';
import { handoffProcessor } from './handoff-processor.js';
import { messageStages, personalDataContextStage, personalDataKeyRing } from './message-stages.js';
import { createLogger, type Logger } from './logger.js';
import { consumerMetrics, createServiceMetrics, registerConsumerLag } from './metrics.js';
import type { ServiceConfig } from './service-config.js';

/** What a service's own logic is given. */
export interface HandoffServiceContext {
  config: Readonly<ServiceConfig>;
  topics: TopicNames;
  codec: HandoffCodec;
  outcomeCodec: OutcomeCodec;
  /** The negotiated handoff's lifecycle messages, on the events topic and agents' control topics. */
  lifecycleCodec: LifecycleCodec;
  /** The context a negotiated handoff offers, staged on the events topic before its first HandoffRequest. */
  stagedCodec: StagedContextCodec;
  /**
   * What a negotiated handoff's context stored by reference goes through as the service stores and
   * fetches it: encrypted and decrypted with the key ring, like the codecs' messages; undefined without.
   */
  contextStage: WireStage | undefined;
  logger: Logger;
  kafka: KafkaClient;
  /** The registry /metrics serves: a service registers its own metrics here. */
  metrics: Registry;
  /**
   * The chassis's logs and metrics of a consumer. A further consumer the service runs (an agent's
   * control topic, say) reports here too, so it is logged and counted like the main one: its
   * messages' labels must stay few, as for any consumer.
   */
  consumerObserver: ConsumerObserver;
  /** The lag of the service's consumer group on its source topic, per partition. */
  sourceLag(): Promise<PartitionLag[]>;
  /** The messages of the source topic this instance's consumer holds uncommitted (ExactlyOnceConsumer.uncommitted). */
  sourceUncommitted(): number;
}

export interface HandoffServiceDefinition {
  /** The service's name in logs and metrics, e.g. `router` or `agent.sales_agent`. */
  name: string;
  /**
   * One consumer group per service: instances of the service share its partitions. It includes
   * the topic prefix, so installations sharing a cluster never join (or fence) each other.
   */
  groupId(topics: TopicNames): string;
  sourceTopic(topics: TopicNames): string;
  /** Topics the service writes to, created at start if missing. */
  outputTopics(topics: TopicNames): string[];
  createProcessor(context: HandoffServiceContext): Omit<HandoffProcessorOptions, 'codec'>;
  /** Routes a service adds to its HTTP app (a human agent's pending tasks, say). */
  registerRoutes?(app: FastifyInstance, context: HandoffServiceContext): void;
  /**
   * What the service holds besides its consumer (a registry reader, a heartbeat, a store), in start
   * order: started after the service's topics exist and before its consumer takes a first handoff,
   * closed after the consumer has drained.
   */
  components?(context: HandoffServiceContext): Component[];
  /**
   * Further consumers (an agent's control topic, say): started after `components`, then the
   * service's own consumer; at stop all of them drain at once.
   */
  consumers?(context: HandoffServiceContext): Component[];
  /**
   * What the service wants to hear of its consumer, besides the chassis's logs and metrics: e.g. to
   * count its own metrics (registered on `context.metrics`) once a message's outputs are committed.
   */
  observer?(context: HandoffServiceContext): ConsumerObserver;
}

/** A handoff service built from its definition: start and close it through `service`. */
export interface HandoffService {
  service: Service;
  http: HttpServer;
  context: HandoffServiceContext;
}

/**
 * The chassis of every handoff-consuming service: configuration, structured logs, the registry
 * codecs, its topics, an exactly-once consumer, and an HTTP server with /healthz, /readyz and
 * /metrics. Building connects to nothing. The components, in start order: the HTTP server
 * (/readyz answers 503 until the rest has started), the schemas (registered, so the codecs can
 * write), the topics, the definition's components, then the consumers; a stop closes them in
 * reverse, so work in progress commits while everything it uses is still there.
 */
export function buildHandoffService(
  definition: HandoffServiceDefinition,
  config: Readonly<ServiceConfig>,
): HandoffService {
  const logger = createLogger(definition.name);
  const topics = topicNames(config.topicPrefix);
  const kafka = createKafka({
    brokers: config.kafkaBrokers,
    clientId: config.instanceId,
    security: config.kafkaSecurity,
  });
  const metrics = createServiceMetrics({ service: definition.name, schemaRegistry: config.schemaRegistry });
  const keyRing = personalDataKeyRing(config, logger);
  const codecs = serviceCodecs(
    new SchemaRegistryClient(config.schemaRegistry),
    messageStages(config, logger, metrics, keyRing),
  );
  const { codec, outcomeCodec, lifecycleCodec, stagedCodec } = codecs;
  const consumerObserver = combineObservers([loggingObserver(logger), consumerMetrics(metrics)], logger);
  const source = definition.sourceTopic(topics);
  const groupId = definition.groupId(topics);
  const lag = new ConsumerLagReader(kafka, groupId, source);
  registerConsumerLag(metrics, { topic: source, read: () => lag.read() });
  const context: HandoffServiceContext = {
    config,
    topics,
    codec,
    outcomeCodec,
    lifecycleCodec,
    stagedCodec,
    contextStage: personalDataContextStage(keyRing),
    logger,
    kafka,
    metrics,
    consumerObserver,
    sourceLag: () => lag.read(),
    sourceUncommitted: () => consumer.uncommitted,
  };
  const consumer = new ExactlyOnceConsumer<Handoff>({
    kafka,
    groupId,
    topic: source,
    instanceId: config.instanceId,
    defaultRetryLimit: config.defaultRetryLimit,
    tuning: config.consumerTuning,
    processor: handoffProcessor({ codec, ...definition.createProcessor(context) }),
    observer: combineObservers([consumerObserver, definition.observer?.(context) ?? {}], logger),
  });
  const http = new HttpServer({
    port: config.httpPort,
    host: config.httpHost,
    isReady: () => service.isReady(),
    metrics,
    logger,
  });
  definition.registerRoutes?.(http.app, context);
  const sizing = { numPartitions: config.partitions, replicationFactor: config.replicationFactor };
  const service: Service = new Service({
    name: definition.name,
    logger,
    startedFacts: () => ({
      source,
      group: groupId,
      http: http.address(),
      personal_data_keys: keyRing?.keyIds() ?? 'none: personal fields pass through encrypted',
    }),
    components: [
      http,
      component('schemas', { start: () => codecs.register() }),
      component('topics', {
        start: () =>
          createTopics(kafka, [
            ...consumerTopicSpecs(source, sizing),
            ...definition.outputTopics(topics).map((topic) => ({ topic, ...sizing })),
          ]),
      }),
      // Only metrics and a receiver's load read through it: a failed disconnect must not fail the drain.
      component('source-lag', { close: () => lag.close().catch(() => undefined) }),
      ...(definition.components?.(context) ?? []),
      concurrently('consumers', [
        ...(definition.consumers?.(context) ?? []),
        component('consumer', {
          // Now rather than on the first handoff, which would wait for it.
          start: async () => {
            compileValidators(['handoff']);
            await consumer.start();
          },
          close: () => consumer.close(),
          isReady: () => consumer.isRunning,
        }),
      ]),
    ],
  });
  return { service, http, context };
}

/** The ids every log line about a consumed record carries; null where the record has none. */
function recordIds(record: ConsumedRecord, messageId: string | undefined): Record<string, string | null> {
  return {
    task_id: record.key,
    message_id: messageId ?? record.headers.ce_id ?? null,
    correlation_id: record.headers.correlation_id ?? null,
  };
}

/** Logs what the consumer reports. */
function loggingObserver(logger: Logger): ConsumerObserver {
  return {
    // Every message is processed: the line is built only when debug lines are written.
    processed: (event) => {
      if (!logger.isLevelEnabled('debug')) return;
      logger.debug(
        {
          event: 'message.processed',
          ...recordIds(event.record, event.messageId),
          handoff_type: event.labels.handoff_type,
          attempt: event.attempt,
          duration_ms: event.durationMs,
          outputs: event.outputs.length,
        },
        'processed',
      );
    },
    duplicate: (event) =>
      logger.info({ event: 'message.duplicate', ...recordIds(event.record, event.messageId) }, 'duplicate skipped'),
    retryScheduled: (event) =>
      logger.warn(
        {
          event: 'message.retry',
          ...recordIds(event.record, event.messageId),
          attempt: event.attempt,
          delay_ms: event.delayMs,
          code: event.error.code,
          err: event.error.message,
        },
        'retry scheduled',
      ),
    deadLettered: (event) =>
      logger.warn(
        {
          event: 'message.dead_lettered',
          ...recordIds(event.record, event.messageId),
          code: event.error.code,
          attempts: event.attempts,
          topic: event.deadLetterTopic,
          err: event.error.message,
        },
        'dead-lettered',
      ),
    partitionReady: (event) => logger.info({ event: 'partition.ready', ...event }, 'partition ready'),
    partitionStopped: (event) => logger.info({ event: 'partition.stopped', ...event }, 'partition stopped'),
    partitionStartFailed: ({ topic, partition, error, delayMs }) =>
      logger.warn(
        { event: 'partition.restarting', topic, partition, delay_ms: delayMs, err: error.message },
        'partition taken up again from its committed offset',
      ),
  };
}

const OBSERVER_EVENTS = [
  'processed',
  'duplicate',
  'retryScheduled',
  'deadLettered',
  'partitionStopped',
  'partitionReady',
  'partitionStartFailed',
  'transactionCommitted',
] as const satisfies readonly (keyof ConsumerObserver)[];

/**
 * One observer that tells each of `observers` in turn. The consumer calls observers inside its
 * processing, so a throwing one is logged and passed over rather than taken for a failed message.
 */
export function combineObservers(observers: readonly ConsumerObserver[], logger: Logger): ConsumerObserver {
  type Callback = (event: unknown) => void;
  const combined: Partial<Record<(typeof OBSERVER_EVENTS)[number], Callback>> = {};
  for (const name of OBSERVER_EVENTS) {
    const callbacks = observers.flatMap((observer) => {
      const callback = observer[name] as Callback | undefined;
      return callback === undefined ? [] : [callback.bind(observer)];
    });
    if (callbacks.length === 0) continue;
    combined[name] = (event) => {
      for (const callback of callbacks) {
        try {
          callback(event);
        } catch (error) {
          logger.error({ event: 'observer.failed', callback: name, err: error }, 'a consumer observer threw');
        }
      }
    };
  }
  return combined as ConsumerObserver;
}
