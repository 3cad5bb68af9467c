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
  HttpServer,
  METRIC_NAMES,
  Service,
  component,
  createLogger,
  createServiceMetrics,
  messageStages,
  outcomeRefusals,
  recordFacts,
} from '@baton/runtime';
import type { BatonError } from '@baton/errors';
import { controlTopicCreator } from '@baton/negotiation';
import { compileValidators } from '@baton/protocol';
import { TaskBook } from '@baton/task-tracking';
import { EventsCodec, SchemaRegistryClient } from '@baton/wire';
import { NegotiationCoordinator } from './negotiation-coordinator.js';
import { registerTaskGauges, registerTrackerRoutes } from './tracker-app.js';
import type { TrackerConfig } from './tracker-config.js';

/**
 * The tracker process: reads `<prefix>.events` from the beginning with a reader group of its own,
 * folds every record (outcome events, lifecycle messages, staged contexts) into a TaskBook and
 * answers who owns each task. Nothing is stored but the topic: the fold is deterministic, so a
 * tracker rebuilt from the topic equals one that never stopped. Once caught up it also runs the
 * sender's side of negotiated handoffs (NegotiationCoordinator), whose decisions it writes to the
 * same topic and folds back like any other record. Its components, in start order: the HTTP
 * server (listening first: /readyz answers 503 while the topic is read), the schemas, the events topic, the
 * sender of its decisions, the reader (ready once it has read every partition to the end offset it
 * had at start), then the coordinator.
 */
export function buildTracker(config: Readonly<TrackerConfig>): { service: Service; http: HttpServer } {
  const logger = createLogger('tracker');
  const topics = topicNames(config.topicPrefix);
  const kafka = createKafka({
    brokers: config.kafkaBrokers,
    clientId: config.instanceId,
    security: config.kafkaSecurity,
  });
  const registry = createServiceMetrics({ service: 'tracker', schemaRegistry: config.schemaRegistry });
  const codec = EventsCodec.unregistered(
    new SchemaRegistryClient(config.schemaRegistry),
    messageStages(config, logger, registry),
  );
  const sizing = { numPartitions: config.partitions, replicationFactor: config.replicationFactor };
  const book = new TaskBook({
    maxEvents: config.maxEvents,
    maxEventsPerTask: config.maxEventsPerTask,
    holderCheck: outcomeRefusals(logger, registry),
  });
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
    ensureControlTopic: controlTopicCreator({ kafka, topics, ...sizing }),
  });
  const reader = new TopicReader({
    kafka,
    groupId: `${topics.prefix}.tracker.${config.instanceId}`,
    topics: [topics.events],
    catchUp: { timeoutMs: config.catchUpTimeoutMs },
    onRecord: async (record) => {
      if (record.value === null) return;
      try {
        const event = await codec.decode(record.value, recordFacts(record));
        if (book.apply(event) && event.kind !== 'outcome') {
          coordinator.folded(event.value.task_id ?? '', event.kind === 'lifecycle' ? event.value.message_id : '');
        }
      } catch (error) {
        // An event that fails its signature check (BATON_SIGNATURES=required) lands here too, with its code.
        const { code, path } = error as Partial<BatonError>;
        logger.warn(
          { event: 'tracker.undecodable_event', task_id: record.key, offset: record.offset, code, path, err: error },
          'event skipped',
        );
      }
    },
  });
  const http = new HttpServer({
    port: config.httpPort,
    host: config.httpHost,
    isReady: () => service.isReady(),
    metrics: registry,
    logger,
  });
  registerTrackerRoutes(http.app, book);
  let catchUpMs = 0;
  const service: Service = new Service({
    name: 'tracker',
    logger,
    startedFacts: () => ({ http: http.address(), tasks: book.size, catch_up_ms: catchUpMs }),
    components: [
      http,
      component('schemas', { start: () => codec.register() }),
      component('topics', { start: () => createTopics(kafka, [{ topic: topics.events, ...sizing }]) }),
      component('sender', { close: () => sender.close() }),
      component('events-reader', {
        start: async () => {
          const began = Date.now();
          // Every events record is validated: compiled now rather than on the first ones.
          compileValidators(['lifecycle', 'staged-context', 'outcome']);
          await reader.start();
          catchUpMs = Date.now() - began;
        },
        close: () => reader.stop(),
        isReady: () => reader.isRunning,
      }),
      component('negotiation-coordinator', {
        start: async () => coordinator.activate(),
        close: async () => coordinator.close(),
      }),
    ],
  });
  return { service, http };
}
