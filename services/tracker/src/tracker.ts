import type { FastifyInstance } from 'fastify';
import { createKafka, createTopics, topicNames, TopicReader } from '@baton/kafka';
import { createLogger, createServiceMetrics, listeningAddress, type Logger } from '@baton/runtime';
import { TaskBook } from '@baton/task-tracking';
import { SchemaRegistryClient, createOutcomeCodec } from '@baton/wire';
import { buildTrackerApp, registerTaskGauge } from './tracker-app.js';
import type { TrackerConfig } from './tracker-config.js';

/**
 * The tracker process: reads `<prefix>.events` from the beginning with a reader group of its own,
 * folds every outcome event into a TaskBook and answers who owns each task. Nothing is stored but
 * the topic: the fold is deterministic, so a tracker rebuilt from the topic equals one that never
 * stopped. Ready once the reader runs and has read every partition to the end offset it had at start.
 */
export class Tracker {
  private closing: Promise<void> | undefined;

  private constructor(
    readonly app: FastifyInstance,
    private readonly logger: Logger,
    private readonly reader: TopicReader,
  ) {}

  static async start(config: Readonly<TrackerConfig>): Promise<Tracker> {
    const logger = createLogger('tracker');
    const topics = topicNames(config.topicPrefix);
    const kafka = createKafka({ brokers: config.kafkaBrokers, clientId: config.instanceId });
    const outcomeCodec = await createOutcomeCodec(new SchemaRegistryClient({ url: config.schemaRegistryUrl }));
    await createTopics(config.kafkaBrokers, [
      { topic: topics.events, numPartitions: config.partitions, replicationFactor: config.replicationFactor },
    ]);
    const book = new TaskBook();
    const registry = createServiceMetrics({ service: 'tracker', schemaRegistryUrl: config.schemaRegistryUrl });
    registerTaskGauge(registry, book);

    let caughtUp = false;
    const reader = new TopicReader({
      kafka,
      groupId: `${topics.prefix}.tracker.${config.instanceId}`,
      topics: [topics.events],
      catchUp: { timeoutMs: config.catchUpTimeoutMs },
      onRecord: async (record) => {
        if (record.value === null) return;
        try {
          book.add(await outcomeCodec.decode(record.value));
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
    const tracker = new Tracker(app, logger, reader);
    const began = Date.now();
    try {
      await reader.start();
    } catch (error) {
      await tracker.close();
      throw error;
    }
    caughtUp = true;
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
      await this.app.close();
      await this.reader.stop();
      this.logger.info({ event: 'service.stopped' }, 'stopped');
    })();
    return this.closing;
  }
}
