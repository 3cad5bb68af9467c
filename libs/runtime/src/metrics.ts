import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ConsumedRecord, ConsumerObserver, MessageLabels, PartitionLag } from '@baton/kafka';
import { SchemaRegistryClient, type SchemaRegistryOptions } from '@baton/wire';
import { cachedProbe } from './cached-probe.js';
import { HotCounter } from './hot-counter.js';
import { HotHistogram } from './hot-histogram.js';
import { OUTCOME_EVENT_TYPE_PREFIX } from './outcome-record.js';
import { UNKNOWN_LABEL_VALUE, handoffTypeLabel, type HandoffLabels } from './handoff-labels.js';

/**
 * Every metric Baton defines, in one place: Prometheus conventions, the unit in the name, `_total`
 * on counters. Every series also has the `service` label; Node's default metrics
 * (`process_resident_memory_bytes`, `nodejs_eventloop_lag_seconds`, ...) come with each registry.
 */
export const METRIC_NAMES = {
  /** Counter {topic, handoff_type, issue_category, result}: result is processed, duplicate or dead_lettered. */
  handoffsConsumed: 'baton_handoffs_consumed_total',
  /** Counter {handoff_type, issue_category, rule, target}: the router's dispatches, one per target. */
  handoffsRouted: 'baton_handoffs_routed_total',
  /** Counter {handoff_type, recipient}: handoffs the router's sender policy refused (NOT_AUTHORIZED). */
  handoffsRefused: 'baton_handoffs_refused_total',
  /** Counter {handoff_type, issue_category, outcome}: what became of handoffs here (COMPLETED, ESCALATED, ...). */
  handoffOutcomes: 'baton_handoff_outcomes_total',
  /** Histogram {handoff_type, issue_category}: from taking a handoff to committing its outputs. */
  processingSeconds: 'baton_handoff_processing_seconds',
  /** Histogram {topic}: consumed messages committed per Kafka transaction; its count is the transactions. */
  transactionMessages: 'baton_transaction_messages',
  /** Counter {handoff_type, code}: retries scheduled after a retriable failure. */
  retries: 'baton_handoff_retries_total',
  /** Counter {topic, reason}: records sent to a dead-letter topic, by error code. */
  deadLetters: 'baton_dead_letters_total',
  /** Gauge {topic, partition}: the end offset minus the group's committed offset, read on scrape. */
  consumerLag: 'baton_consumer_lag_messages',
  /** Gauge: 1 when the schema registry answered its last probe, else 0; probed on scrape. */
  schemaRegistryUp: 'baton_schema_registry_up',
  /** Counter {route, method, status}: the gateway's API requests. */
  httpRequests: 'baton_http_requests_total',
  /** Counter {outcome}: dead letters the gateway replayed (replayed, failed). */
  replays: 'baton_replays_total',
  /** Gauge {status}: tasks the tracker knows in each TaskStatus (CREATE ... FINISH, FAILED, EXPIRED). */
  tasks: 'baton_tasks',
  /** Gauge {outcome}: the tracker's negotiated handoffs by outcome (OPEN, COMPLETED, FAILED, EXPIRED). */
  negotiations: 'baton_negotiations',
  /** Counter {duty}: what this tracker sent for senders: send-context, request, time-out, fail, expire. */
  trackerDuties: 'baton_tracker_duties_total',
  /** Counter {kind, outcome}: signatures verified on messages read; outcome is valid or the failure code. */
  signatureVerifications: 'baton_signature_verifications_total',
  /** Counter {code}: outcome events the tracker's or the gateway's fold refused (OUTCOME_NOT_HOLDER). */
  outcomesRefused: 'baton_outcomes_refused_total',
} as const;

/** How a value computed on scrape is bounded: reused for `cacheMs`, awaited at most `timeoutMs`. */
export interface ScrapeProbeOptions {
  /** @default 2000 */
  cacheMs?: number;
  /** @default 2000 for the consumer lag, 1000 for the registry probe */
  timeoutMs?: number;
}

const DEFAULT_CACHE_MS = 2_000;

export interface ServiceMetricsOptions {
  /** The service's name: the `service` label of every series. */
  service: string;
  /**
   * When given, `baton_schema_registry_up` probes `<url>/subjects` on scrape, with the credentials
   * and CA the service reads the registry with (an authenticated registry answers no one else).
   */
  schemaRegistry?: SchemaRegistryOptions;
  schemaRegistryProbe?: ScrapeProbeOptions;
}

/**
 * How often the event loop's delay is sampled for `nodejs_eventloop_lag_p50` and its siblings.
 * prom-client's 10 ms default wakes an idle service a hundred times a second; on a 2-core VM an
 * empty 10 ms interval alone costs 1.3 % of a core (100 ms: 0.2 %; measured). Sampled each
 * second, a block of the loop longer than that always shows (it delays a sample), a shorter one in
 * proportion to its length; `nodejs_eventloop_lag_seconds`, measured when scraped, is unchanged.
 */
const EVENT_LOOP_SAMPLE_MS = 1_000;

/**
 * The registry every Baton service exposes on /metrics, consumer or not: the `service` label,
 * Node's default metrics and, given its URL, the schema registry's liveness. A consuming service
 * adds `consumerMetrics` and `registerConsumerLag`; a service registers its own metrics on it.
 */
export function createServiceMetrics(options: ServiceMetricsOptions): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  if (options.schemaRegistry !== undefined) {
    registerSchemaRegistryUp(registry, options.schemaRegistry, options.schemaRegistryProbe);
  }
  return registry;
}

/** `baton_schema_registry_up`: GET `<url>/subjects` answered 2xx within the timeout. */
export function registerSchemaRegistryUp(
  registry: Registry,
  schemaRegistry: SchemaRegistryOptions,
  options: ScrapeProbeOptions = {},
): void {
  const timeoutMs = options.timeoutMs ?? 1_000;
  const client = new SchemaRegistryClient(schemaRegistry);
  const probe = cachedProbe(() => client.isUp(timeoutMs), { ttlMs: options.cacheMs ?? DEFAULT_CACHE_MS, timeoutMs });
  new Gauge({
    name: METRIC_NAMES.schemaRegistryUp,
    help: 'Whether the schema registry answered (GET /subjects) at the last probe: 1 up, 0 down',
    registers: [registry],
    async collect() {
      this.set((await probe()) === true ? 1 : 0);
    },
  });
}

export interface ConsumerLagOptions extends ScrapeProbeOptions {
  topic: string;
  /** Reads the lag of every partition (e.g. `ConsumerLagReader.read` of @baton/kafka). */
  read(): Promise<readonly PartitionLag[]>;
}

/**
 * `baton_consumer_lag_messages{topic,partition}`, read on scrape. When the read fails or is late
 * the gauge has no series, rather than failing /metrics or showing a stale number.
 */
export function registerConsumerLag(registry: Registry, options: ConsumerLagOptions): void {
  const read = cachedProbe(() => options.read(), {
    ttlMs: options.cacheMs ?? DEFAULT_CACHE_MS,
    timeoutMs: options.timeoutMs ?? 2_000,
  });
  new Gauge({
    name: METRIC_NAMES.consumerLag,
    help: "Offsets between the consumer group's committed offset and the end of each partition (commit markers count)",
    labelNames: ['topic', 'partition'],
    registers: [registry],
    async collect() {
      const partitions = await read();
      this.reset();
      for (const { partition, lag } of partitions ?? []) {
        this.set({ topic: options.topic, partition: String(partition) }, lag);
      }
    },
  });
}

/** Whether `labels` are exactly a handoff_type and an issue_category, as a handoff's labels are. */
function isHandoffLabels(labels: MessageLabels): labels is Readonly<HandoffLabels> {
  let names = 0;
  for (const name in labels) if (Object.hasOwn(labels, name)) names += 1;
  return names === 2 && labels.handoff_type !== undefined && labels.issue_category !== undefined;
}

/**
 * The handoff_type and issue_category of a consumer event: the decoded message's labels as they
 * are when they are those two (a handoff's are, shared rather than made per message), else what
 * the record tells (its `ce_type` header, read only then).
 */
export function eventLabels(labels: MessageLabels, record: Pick<ConsumedRecord, 'headers'>): Readonly<HandoffLabels> {
  if (isHandoffLabels(labels)) return labels;
  return {
    handoff_type: handoffTypeLabel(labels, record.headers.ce_type),
    issue_category: labels.issue_category ?? UNKNOWN_LABEL_VALUE,
  };
}

/** The outcome an outcome event names in its CloudEvents type, `baton.outcome.<OUTCOME>`. */
function outcomeOf(headers: Readonly<Record<string, string>> | undefined): string | undefined {
  const type = headers?.ce_type;
  return type?.startsWith(OUTCOME_EVENT_TYPE_PREFIX) ? type.slice(OUTCOME_EVENT_TYPE_PREFIX.length) : undefined;
}

/** The handoff consumer's metrics on `registry`, counted from what the consumer reports. */
export function consumerMetrics(registry: Registry): ConsumerObserver {
  const consumed = new HotCounter({
    name: METRIC_NAMES.handoffsConsumed,
    help: 'Handoffs consumed, by handoff_type, issue_category and result (processed, duplicate, dead_lettered)',
    labelNames: ['topic', 'handoff_type', 'issue_category', 'result'],
    registers: [registry],
  });
  const processing = new HotHistogram({
    name: METRIC_NAMES.processingSeconds,
    help: 'Time from taking a handoff to committing its outputs, per attempt that succeeded',
    labelNames: ['handoff_type', 'issue_category'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const retries = new Counter({
    name: METRIC_NAMES.retries,
    help: 'Retries scheduled after retriable failures, by handoff_type and error code',
    labelNames: ['handoff_type', 'code'],
    registers: [registry],
  });
  const outcomes = new HotCounter({
    name: METRIC_NAMES.handoffOutcomes,
    help: 'Outcome events this service committed, by handoff_type, issue_category and outcome',
    labelNames: ['handoff_type', 'issue_category', 'outcome'],
    registers: [registry],
  });
  const deadLetters = new Counter({
    name: METRIC_NAMES.deadLetters,
    help: 'Records sent to a dead-letter topic, by source topic and reason (error code)',
    labelNames: ['topic', 'reason'],
    registers: [registry],
  });
  const transactions = new Histogram({
    name: METRIC_NAMES.transactionMessages,
    help: 'Consumed messages whose outputs, markers and offset one Kafka transaction committed, by source topic',
    labelNames: ['topic'],
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
    registers: [registry],
  });
  return {
    transactionCommitted: ({ topic, messages }) => transactions.observe({ topic }, messages),
    processed: ({ record, labels, durationMs, outputs }) => {
      const handoff = eventLabels(labels, record);
      consumed.inc(record.topic, handoff.handoff_type, handoff.issue_category, 'processed');
      processing.observe(durationMs / 1000, handoff.handoff_type, handoff.issue_category);
      for (const output of outputs) {
        const outcome = outcomeOf(output.headers);
        if (outcome !== undefined) outcomes.inc(handoff.handoff_type, handoff.issue_category, outcome);
      }
    },
    duplicate: ({ record, labels }) => {
      const { handoff_type, issue_category } = eventLabels(labels, record);
      consumed.inc(record.topic, handoff_type, issue_category, 'duplicate');
    },
    retryScheduled: ({ record, labels, error }) =>
      retries.inc({ handoff_type: eventLabels(labels, record).handoff_type, code: error.code }),
    deadLettered: ({ record, labels, error }) => {
      const { handoff_type, issue_category } = eventLabels(labels, record);
      consumed.inc(record.topic, handoff_type, issue_category, 'dead_lettered');
      deadLetters.inc({ topic: record.topic, reason: error.code });
    },
  };
}
