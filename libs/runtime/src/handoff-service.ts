import type { FastifyInstance } from 'fastify';
import {
  ExactlyOnceConsumer,
  consumerTopicSpecs,
  createKafka,
  createTopics,
  topicNames,
  type ConsumerObserver,
  type Kafka,
  type TopicNames,
} from '@baton/kafka';
import {
  SchemaRegistryClient,
  createHandoffCodec,
  createOutcomeCodec,
  type HandoffCodec,
  type OutcomeCodec,
} from '@baton/wire';
import { buildHealthApp } from './health-app.js';
import type { Handoff, HandoffProcessorOptions } from './handoff-processor.js';
import { handoffProcessor } from './handoff-processor.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import type { ServiceConfig } from './service-config.js';

/** What a service's own logic is given. */
export interface HandoffServiceContext {
  config: Readonly<ServiceConfig>;
  topics: TopicNames;
  codec: HandoffCodec;
  outcomeCodec: OutcomeCodec;
  logger: Logger;
  kafka: Kafka;
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
}

/**
 * The chassis of every handoff-consuming service: configuration, structured logs, the registry
 * codecs, its topics, an exactly-once consumer, and an HTTP app with /healthz, /readyz and
 * /metrics. `close()` stops fetching, lets work in progress commit, disconnects and closes HTTP.
 */
export class HandoffService {
  private closing: Promise<void> | undefined;

  private constructor(
    readonly app: FastifyInstance,
    readonly context: HandoffServiceContext,
    private readonly consumer: ExactlyOnceConsumer<Handoff>,
  ) {}

  static async start(definition: HandoffServiceDefinition, config: Readonly<ServiceConfig>): Promise<HandoffService> {
    const logger = createLogger(definition.name);
    const topics = topicNames(config.topicPrefix);
    const kafka = createKafka({ brokers: config.kafkaBrokers, clientId: config.instanceId });
    const registry = new SchemaRegistryClient({ url: config.schemaRegistryUrl });
    const [codec, outcomeCodec] = await Promise.all([createHandoffCodec(registry), createOutcomeCodec(registry)]);
    const context: HandoffServiceContext = { config, topics, codec, outcomeCodec, logger, kafka };
    const source = definition.sourceTopic(topics);
    const sizing = { numPartitions: config.partitions, replicationFactor: config.replicationFactor };
    await createTopics(config.kafkaBrokers, [
      ...consumerTopicSpecs(source, sizing),
      ...definition.outputTopics(topics).map((topic) => ({ topic, ...sizing })),
    ]);
    const metrics = createMetrics(definition.name);
    const groupId = definition.groupId(topics);
    const consumer = new ExactlyOnceConsumer<Handoff>({
      kafka,
      groupId,
      topic: source,
      instanceId: config.instanceId,
      defaultRetryLimit: config.defaultRetryLimit,
      processor: handoffProcessor({ codec, ...definition.createProcessor(context) }),
      observer: loggingObserver(logger, metrics.observer),
    });
    const app = buildHealthApp({ isReady: () => consumer.isRunning, registry: metrics.registry });
    definition.registerRoutes?.(app, context);
    const service = new HandoffService(app, context, consumer);
    await app.listen({ port: config.httpPort, host: config.httpHost });
    await consumer.start();
    logger.info({ event: 'service.started', source, group: groupId, http: service.address() }, 'started');
    return service;
  }

  /** The HTTP address the service listens on. */
  address(): string {
    const address = this.app.server.address();
    return typeof address === 'object' && address !== null
      ? `http://${address.address}:${address.port}`
      : String(address);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.context.logger.info({ event: 'service.stopping' }, 'stopping');
      await this.consumer.close();
      await this.app.close();
      this.context.logger.info({ event: 'service.stopped' }, 'stopped');
    })();
    return this.closing;
  }
}

/** Logs what the consumer reports, passing each event on to the metrics observer too. */
function loggingObserver(logger: Logger, metrics: ConsumerObserver): ConsumerObserver {
  return {
    processed: (event) => {
      metrics.processed?.(event);
      logger.debug(
        {
          event: 'message.processed',
          task_id: event.record.key,
          message_id: event.messageId,
          attempt: event.attempt,
          duration_ms: event.durationMs,
        },
        'processed',
      );
    },
    duplicate: (event) => {
      metrics.duplicate?.(event);
      logger.info(
        { event: 'message.duplicate', task_id: event.record.key, message_id: event.messageId },
        'duplicate skipped',
      );
    },
    retryScheduled: (event) => {
      metrics.retryScheduled?.(event);
      logger.warn(
        {
          event: 'message.retry',
          task_id: event.record.key,
          message_id: event.record.headers.ce_id,
          attempt: event.attempt,
          delay_ms: event.delayMs,
          code: event.error.code,
          err: event.error.message,
        },
        'retry scheduled',
      );
    },
    deadLettered: (event) => {
      metrics.deadLettered?.(event);
      logger.warn(
        {
          event: 'message.dead_lettered',
          task_id: event.record.key,
          message_id: event.record.headers.ce_id,
          code: event.error.code,
          attempts: event.attempts,
          topic: event.deadLetterTopic,
          err: event.error.message,
        },
        'dead-lettered',
      );
    },
    partitionReady: (event) => logger.info({ event: 'partition.ready', ...event }, 'partition ready'),
    partitionStopped: (event) => logger.info({ event: 'partition.stopped', ...event }, 'partition stopped'),
  };
}
