import type { FastifyInstance } from 'fastify';
import {
  createKafka,
  createTopics,
  topicNames,
  TopicReader,
  TransactionalSender,
  type OutputRecord,
} from '@baton/kafka';
import {
  Counter,
  METRIC_NAMES,
  controlTopicCreator,
  createLogger,
  createServiceMetrics,
  listeningAddress,
  type Logger,
} from '@baton/runtime';
import { compileValidators } from '@baton/protocol';
import { TaskBook } from '@baton/task-tracking';
import { EventsCodec, SchemaRegistryClient } from '@baton/wire';
import { NegotiationCoordinator } from './negotiation-coordinator.js';
import { buildTrackerApp, registerTaskGauges } from './tracker-app.js';
import type { TrackerConfig } from './tracker-config.js';

/**
 * The tracker process: reads `<prefix>.events` from the beginning with a reader group of its own,
 * folds every record (outcome events, lifecycle messages, staged contexts) into a TaskBook and
 * answers who owns each task. Nothing is stored but the topic: the fold is deterministic, so a
 * tracker rebuilt from the topic equals one that never stopped. Once caught up it also runs the
 * sender's side of negotiated handoffs (NegotiationCoordinator), whose decisions it writes to the
 * same topic and folds back like any other record. Ready once the reader runs and has read every
 * partition to the end offset it had at start.
 */
export class Tracker {
  private closing: Promise<void> | undefined;

  private constructor(
    readonly app: FastifyInstance,
    private readonly logger: Logger,
    private readonly reader: TopicReader,
    private readonly coordinator: NegotiationCoordinator,
    private readonly sender: TransactionalSender,
  ) {}

  static async start(config: Readonly<TrackerConfig>): Promise<Tracker> {
    const logger = createLogger('tracker');
    const topics = topicNames(config.topicPrefix);
    const kafka = createKafka({ brokers: config.kafkaBrokers, clientId: config.instanceId });
    const codec = await EventsCodec.create(new SchemaRegistryClient({ url: config.schemaRegistryUrl }));
    const sizing = { numPartitions: config.partitions, replicationFactor: config.replicationFactor };
    await createTopics(config.kafkaBrokers, [{ topic: topics.events, ...sizing }]);
    const book = new TaskBook();
    const registry = createServiceMetrics({ service: 'tracker', schemaRegistryUrl: config.schemaRegistryUrl });
    registerTaskGauges(registry, book);
    const sender = new TransactionalSender(kafka, `${topics.prefix}.tracker.${config.instanceId}`);
    const coordinator = new NegotiationCoordinator({
      book,
      topics,
      codec: codec.lifecycle,
      settings: config.negotiation,
      logger,
      duties: new Counter({
        name: METRIC_NAMES.trackerDuties,
        help: "What this tracker sent on senders' behalf: send-context, request, time-out, fail, expire",
        labelNames: ['duty'],
        registers: [registry],
      }),
      // A receiver's control topic may not exist yet: its agent creates it when it starts.
      send: (records: OutputRecord[]) => sender.send(records),
      ensureControlTopic: controlTopicCreator({
        brokers: config.kafkaBrokers,
        topics,
        numPartitions: config.partitions,
        replicationFactor: config.replicationFactor,
      }),
    });

    let caughtUp = false;
    const reader = new TopicReader({
      kafka,
      groupId: `${topics.prefix}.tracker.${config.instanceId}`,
      topics: [topics.events],
      catchUp: { timeoutMs: config.catchUpTimeoutMs },
      onRecord: async (record) => {
        if (record.value === null) return;
        try {
          const event = await codec.decode(record.value);
          if (book.apply(event) && event.kind !== 'outcome') {
            coordinator.folded(event.value.task_id ?? '', event.kind === 'lifecycle' ? event.value.message_id : '');
          }
        } catch (error) {
          logger.warn(
            { event: 'tracker.undecodable_event', task_id: record.key, offset: record.offset, err: error },
            'event skipped',
          );
        }
      },
    });
    const app = buildTrackerApp({ book, registry, isReady: () => caughtUp && reader.isRunning });
    // Listening first: /readyz answers 503 while the topic is read.
    await app.listen({ port: config.httpPort, host: config.httpHost });
    const tracker = new Tracker(app, logger, reader, coordinator, sender);
    const began = Date.now();
    try {
      // Every events record is validated: compiled now rather than on the first ones.
      compileValidators(['lifecycle', 'staged-context', 'outcome']);
      await reader.start();
    } catch (error) {
      await tracker.close();
      throw error;
    }
    caughtUp = true;
    coordinator.activate();
    logger.info(
      { event: 'service.started', http: tracker.address(), tasks: book.size, catch_up_ms: Date.now() - began },
      'started',
    );
    return tracker;
  }

  address(): string {
    return listeningAddress(this.app);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.logger.info({ event: 'service.stopping' }, 'stopping');
      this.coordinator.close();
      await this.app.close();
      await this.reader.stop();
      await this.sender.close();
      this.logger.info({ event: 'service.stopped' }, 'stopped');
    })();
    return this.closing;
  }
}
