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
  type Kafka,
  type TopicNames,
} from '@baton/kafka';
import { compileValidators } from '@baton/protocol';
import {
  SchemaRegistryClient,
  createHandoffCodec,
  createLifecycleCodec,
  createOutcomeCodec,
  createStagedContextCodec,
  type HandoffCodec,
  type LifecycleCodec,
  type OutcomeCodec,
  type StagedContextCodec,
} from '@baton/wire';
import { buildHealthApp, listeningAddress } from './health-app.js';
import type { Handoff, HandoffProcessorOptions } from './handoff-processor.js';
import { handoffProcessor } from './handoff-processor.js';
import { createLogger, type Logger } from './logger.js';
import { consumerMetrics, createServiceMetrics, registerConsumerLag } from './metrics.js';
import type { ServiceConfig } from './service-config.js';

/** What a service's own logic is given. */
export interface HandoffServiceContext {
  config: Readonly<ServiceConfig>;
  topics: TopicNames;
  codec: HandoffCodec;
  outcomeCodec: OutcomeCodec;
  /** Seed 001's lifecycle messages (negotiated handoffs), on the events topic and agents' control topics. */
  lifecycleCodec: LifecycleCodec;
  /** The context a negotiated handoff offers, staged on the events topic before its first HandoffRequest. */
  stagedCodec: StagedContextCodec;
  logger: Logger;
  kafka: Kafka;
  /** The registry /metrics serves: a service registers its own metrics here. */
  metrics: Registry;
  /**
   * The chassis's logs and metrics of a consumer. A further consumer the service runs (an agent's
   * control topic, say) reports here too, so it is logged and counted like the main one: its
   * messages' labels must stay few, as for any consumer.
   */
  consumerObserver: ConsumerObserver;
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
   * What the service wants to hear of its consumer, besides the chassis's logs and metrics: e.g. to
   * count its own metrics (registered on `context.metrics`) once a message's outputs are committed.
   */
  observer?(context: HandoffServiceContext): ConsumerObserver;
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
    private readonly lag: ConsumerLagReader,
  ) {}

  static async start(definition: HandoffServiceDefinition, config: Readonly<ServiceConfig>): Promise<HandoffService> {
    const logger = createLogger(definition.name);
    const topics = topicNames(config.topicPrefix);
    const kafka = createKafka({ brokers: config.kafkaBrokers, clientId: config.instanceId });
    const registry = new SchemaRegistryClient({ url: config.schemaRegistryUrl });
    const [codec, outcomeCodec, lifecycleCodec, stagedCodec] = await Promise.all([
      createHandoffCodec(registry),
      createOutcomeCodec(registry),
      createLifecycleCodec(registry),
      createStagedContextCodec(registry),
    ]);
    const metrics = createServiceMetrics({ service: definition.name, schemaRegistryUrl: config.schemaRegistryUrl });
    const consumerObserver = combineObservers([loggingObserver(logger), consumerMetrics(metrics)], logger);
    const context: HandoffServiceContext = {
      config,
      topics,
      codec,
      outcomeCodec,
      lifecycleCodec,
      stagedCodec,
      logger,
      kafka,
      metrics,
      consumerObserver,
    };
    const source = definition.sourceTopic(topics);
    const sizing = { numPartitions: config.partitions, replicationFactor: config.replicationFactor };
    await createTopics(config.kafkaBrokers, [
      ...consumerTopicSpecs(source, sizing),
      ...definition.outputTopics(topics).map((topic) => ({ topic, ...sizing })),
    ]);
    const groupId = definition.groupId(topics);
    const lag = new ConsumerLagReader(kafka, groupId, source);
    registerConsumerLag(metrics, { topic: source, read: () => lag.read() });
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
    const app = buildHealthApp({ isReady: () => consumer.isRunning, registry: metrics });
    definition.registerRoutes?.(app, context);
    const service = new HandoffService(app, context, consumer, lag);
    // Now rather than on the first handoff, which would wait for it.
    compileValidators(['handoff']);
    await app.listen({ port: config.httpPort, host: config.httpHost });
    await consumer.start();
    logger.info({ event: 'service.started', source, group: groupId, http: service.address() }, 'started');
    return service;
  }

  /** The HTTP address the service listens on. */
  address(): string {
    return listeningAddress(this.app);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.context.logger.info({ event: 'service.stopping' }, 'stopping');
      await this.consumer.close();
      // Only metrics read through it: a failed disconnect must not fail the drain.
      await this.lag.close().catch(() => undefined);
      await this.app.close();
      this.context.logger.info({ event: 'service.stopped' }, 'stopped');
    })();
    return this.closing;
  }
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
    processed: (event) =>
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
      ),
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
