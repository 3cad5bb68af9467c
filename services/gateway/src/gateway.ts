import { AgentRegistryReader, AgentRegistryView, agentsTopicSpec } from '@baton/agent-registry';
import { BatonError, isBatonError } from '@baton/errors';
import { ContextStore, createKafka, createTopics, topicNames, TopicReader, TransactionalSender } from '@baton/kafka';
import { controlTopicCreator } from '@baton/negotiation';
import {
  component,
  createLogger,
  createServiceMetrics,
  messageStages,
  outcomeRefusals,
  HandoffPublisher,
  personalDataContextStage,
  personalDataKeyRing,
  Service,
  type HttpServer,
  type Logger,
} from '@baton/runtime';
import { loadRoutingTable, loadSenderPolicy, type SenderPolicy } from '@baton/routing';
import { TaskBook, taskIdOf } from '@baton/task-tracking';
import { PersonalDataView } from '@baton/field-encryption';
import { EventsCodec, SchemaRegistryClient, serviceCodecs } from '@baton/wire';
import { listAgents } from './agents/agent-directory.js';
import { LagTrend } from './overview/lag-trend.js';
import { unboundPublisherWarnings } from './access/api-keys.js';
import { AuditTrail } from './audit/audit-trail.js';
import { DeadLetterReader } from './dead-letters/dead-letter-reader.js';
import { DeadLetterStore } from './dead-letters/dead-letter-store.js';
import type { GatewayConfig } from './gateway-config.js';
import { gatewayMetrics } from './gateway-metrics.js';
import { buildGatewayHttp } from './http/gateway-app.js';
import { HandoffSubmitter } from './publishing/handoff-submitter.js';
import { NegotiationSubmitter } from './publishing/negotiation-submitter.js';
import { ReplayJobs } from './replay/replay-jobs.js';
import { Replayer } from './replay/replayer.js';
import { eventsFolder } from './timeline/events-folder.js';
import { OutcomeRates } from './timeline/outcome-rates.js';
import { TaskFeed } from './timeline/task-feed.js';
import { repliesFolder, TaskReplies } from './timeline/task-replies.js';
import { TaskStreams } from './timeline/task-streams.js';
import { timelineEvent } from './timeline/task-timelines.js';

/** The audit trail is kept forever: who replayed what must outlive the dead letters themselves. */
const AUDIT_TOPIC_CONFIG = [{ name: 'retention.ms', value: '-1' }];

function agentInboxPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.agent\\.([^.]+)\\.inbox$`);
}

/** The router's sender policy, read and checked as the router reads it; undefined without AUTHORIZATION_POLICY. */
async function replaySenderPolicy(config: Readonly<GatewayConfig>, logger: Logger): Promise<SenderPolicy | undefined> {
  if (config.senderPolicy === undefined) {
    logger.warn(
      { event: 'authorization.disabled' },
      'no sender policy (AUTHORIZATION_POLICY is unset): a replay into an agent inbox is not checked against one, as the router checks nothing',
    );
    return undefined;
  }
  const table = await loadRoutingTable(config.senderPolicy.routingTableFile);
  return loadSenderPolicy(config.senderPolicy.policyFile, table);
}

/**
 * The gateway process: its HTTP server, the views it reads from Kafka (task timelines from the
 * events topic, dead letters from every DLQ topic, the audit trail), the publisher and the
 * replayer. Building connects to nothing. Its components, in start order: the schemas; the
 * topics; the producers; the readers; the HTTP server last, so the API answers from views that
 * have read their topics. A stop closes the HTTP server first (no new request), stops the replay
 * jobs and readers, then the producers.
 */
export async function buildGateway(config: Readonly<GatewayConfig>): Promise<{ service: Service; http: HttpServer }> {
  const logger = createLogger('gateway');
  for (const warning of unboundPublisherWarnings(config.apiKeys)) {
    logger.warn({ event: 'gateway.unbound_api_key' }, warning);
  }
  const topics = topicNames(config.topicPrefix);
  const kafka = createKafka({
    brokers: config.kafkaBrokers,
    clientId: config.instanceId,
    security: config.kafkaSecurity,
  });
  const registryClient = new SchemaRegistryClient(config.schemaRegistry);
  const metricsRegistry = createServiceMetrics({ service: 'gateway', schemaRegistry: config.schemaRegistry });
  // What the gateway writes (handoffs, negotiations) has its personal fields encrypted with the key
  // ring, then is signed with its key; it processes nothing it reads, so it verifies only the outcome
  // events its task views fold (an event that fails BATON_SIGNATURES=required is not shown), and its
  // views read records as they travel, revealing personal fields only to the personal-data role.
  const keyRing = personalDataKeyRing(config, logger);
  const stages = messageStages(config, logger, metricsRegistry, keyRing, { verified: ['outcome'] });
  const written = serviceCodecs(registryClient, stages);
  const codec = written.codec;
  const eventsCodec = EventsCodec.unregistered(registryClient, { outcome: stages.outcome });
  const sizing = { numPartitions: config.partitions, replicationFactor: config.replicationFactor };
  const metrics = gatewayMetrics(metricsRegistry);
  const readerGroup = `${topics.prefix}.gateway.${config.instanceId}`;

  // The tracker's fold, bounded: past BATON_TIMELINE_TASKS tasks or BATON_TIMELINE_EVENTS entries
  // the task updated least recently goes. Its task list keeps a row of each of BATON_TASK_LIST_TASKS.
  const tasks = new TaskBook({
    maxTasks: config.timelineTasks,
    maxEvents: config.timelineEvents,
    maxEventsPerTask: config.timelineEventsPerTask,
    holderCheck: outcomeRefusals(logger, metricsRegistry),
    list: { maxTasks: config.taskListTasks, stuckAfterMs: config.taskStuckAfterMs },
  });
  // The agents' replies to the user, bounded alike, and the streams that follow a task live.
  const replies = new TaskReplies(config.timelineTasks);
  const feed = new TaskFeed();
  const outcomeRates = new OutcomeRates();
  const taskStreams = new TaskStreams(
    {
      steps: (taskId) => tasks.get(taskId)?.timeline.map(timelineEvent) ?? [],
      replies: (taskId) => replies.of(taskId),
    },
    feed,
  );
  const foldEvent = eventsFolder(eventsCodec, tasks, logger, (event) => {
    feed.changed(taskIdOf(event));
    outcomeRates.add(event);
  });
  const foldReply = repliesFolder(codec, replies, logger, (taskId) => feed.changed(taskId));
  const audit = new AuditTrail();
  // One reader for a task's two streams and the audit trail: every reader is a fetch loop and a group
  // member of its own, idle or not. A consumer of its own for the replies cost the idle gateway a
  // third more CPU (heartbeats and long polls), 0.85% to 1.13% of a core in the bench; the audit
  // trail's (written only when a dead letter is replayed) 12 fetches and 6 heartbeats a minute, and
  // the idle gateway went from 0.95% to 0.85-0.88% of a core without it (npm start, 60 s).
  const timelineReader = new TopicReader({
    kafka,
    groupId: `${readerGroup}.events`,
    topics: [topics.events, topics.userReplies, topics.audit],
    onRecord: (record) => {
      if (record.topic === topics.userReplies) return foldReply(record);
      if (record.topic === topics.audit) return audit.add(record);
      return foldEvent(record);
    },
  });
  const deadLetters = new DeadLetterStore(config.deadLettersPerTopic);
  const deadLetterReader = new DeadLetterReader({
    kafka,
    prefix: topics.prefix,
    groupId: `${readerGroup}.dlq`,
    store: deadLetters,
    logger,
  });

  const agentRegistry = new AgentRegistryView({ livenessWindowMs: config.livenessWindowMs });
  // Read to its end at start, then only when the agents are listed: following every instance's
  // heartbeat (each one's every 5 s) cost the idle gateway 60 of its 84 fetches a minute, and it
  // went from 0.85-0.88% to 0.72-0.78% of a core without them (npm start, 60 s).
  const agentRegistryReader = new AgentRegistryReader({
    kafka,
    topic: topics.agents,
    groupId: `${readerGroup}.agents`,
    view: agentRegistry,
    logger,
    live: false,
  });

  const publisher = new HandoffPublisher(kafka, codec);
  const sender = new TransactionalSender(kafka, readerGroup);
  const inboxes = agentInboxPattern(topics.prefix);
  const allowed = new Set(config.replayTargets);
  const replayer = new Replayer({
    sender,
    codec,
    auditTopic: topics.audit,
    // The trust gate verifies what the fleet verifies: signatures when they are checked at all
    // (warn or required), and the router's sender policy when it has one.
    trust: {
      ...(config.signing.mode === 'off'
        ? {}
        : { trustStore: config.signing.trustStore, signingKey: config.signing.signingKey }),
      policy: await replaySenderPolicy(config, logger),
      inboxAgentOf: (topic) => inboxes.exec(topic)?.[1],
    },
    isAllowedTarget: (topic) =>
      allowed.size > 0 ? allowed.has(topic) : topic === topics.inbound || inboxes.test(topic),
    observe: (outcome) => metrics.replay(outcome),
  });
  const jobs = new ReplayJobs(deadLetters, replayer, logger);
  // Negotiations get a transactional producer of their own, so a running bulk replay never delays their answer.
  const negotiationSender = new TransactionalSender(kafka, `${readerGroup}.negotiations`);
  const contexts = new ContextStore({ kafka, topic: topics.contexts });
  const negotiations = new NegotiationSubmitter({
    opener: {
      contexts,
      contextStage: personalDataContextStage(keyRing),
      inlineMaxBytes: config.contextInlineMaxBytes,
      ensureControlTopic: controlTopicCreator({ kafka, topics, ...sizing }),
    },
    send: (records) => negotiationSender.send(records),
    codecs: { lifecycleCodec: written.lifecycleCodec, stagedCodec: written.stagedCodec },
    topics,
    timeoutMs: config.publishTimeoutMs,
  });
  const readers = [timelineReader, deadLetterReader, agentRegistryReader];

  const http = await buildGatewayHttp({
    port: config.httpPort,
    host: config.httpHost,
    tls: config.httpTls,
    parts: {
      submitter: new HandoffSubmitter(publisher, topics.inbound, config.publishTimeoutMs),
      negotiations,
      tasks,
      lagTrend: new LagTrend(),
      taskStreams,
      replies,
      outcomeRates,
      listAgents: () =>
        kafkaCall(async () => {
          await agentRegistryReader.refresh();
          return listAgents(
            kafka,
            topics.prefix,
            () => ({ registered: agentRegistry.agents(new Date()), known: new Set(agentRegistry.knownAgentIds()) }),
            () => outcomeRates.byAgent(),
          );
        }),
      deadLetters,
      audit,
      codec,
      personalData: new PersonalDataView(keyRing),
      replayer,
      jobs,
    },
    apiKeys: config.apiKeys,
    jwt: config.jwt,
    logger,
    metrics: metricsRegistry,
    metricsOfRequest: metrics.request,
    isReady: () => service.isReady(),
  });
  const service: Service = new Service({
    name: 'gateway',
    logger,
    startedFacts: () => ({
      http: http.address(),
      api_keys: config.apiKeys.map((key) => key.name),
      personal_data_keys: keyRing?.keyIds() ?? 'none: personal fields pass through encrypted',
    }),
    components: [
      component('schemas', { start: () => Promise.all([written.register(), eventsCodec.register()]) }),
      component('topics', {
        start: () =>
          createTopics(kafka, [
            { topic: topics.inbound, ...sizing },
            { topic: topics.events, ...sizing },
            { topic: topics.userReplies, ...sizing },
            { topic: topics.contexts, ...sizing },
            { topic: topics.audit, ...sizing, configEntries: AUDIT_TOPIC_CONFIG },
            agentsTopicSpec(topics.agents, sizing),
          ]),
      }),
      component('producers', {
        close: () => Promise.all([publisher.close(), sender.close(), negotiationSender.close(), contexts.close()]),
      }),
      component('readers', {
        start: () => Promise.all(readers.map((reader) => reader.start())),
        close: () => Promise.all(readers.map((reader) => reader.stop())),
        isReady: () => readers.every((reader) => reader.isRunning),
      }),
      component('replay-jobs', { close: async () => jobs.stopAll() }),
      http,
      // Closed before the HTTP server, whose close waits for every connection: a stream never ends by itself.
      component('task-streams', { close: async () => taskStreams.closeAll() }),
    ],
  });
  return { service, http };
}

/** Admin calls that fail for want of Kafka answer 503, like publishing does. */
async function kafkaCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isBatonError(error)) throw error;
    throw new BatonError('KAFKA_UNAVAILABLE', `Kafka did not answer: ${(error as Error).message}`, { cause: error });
  }
}
