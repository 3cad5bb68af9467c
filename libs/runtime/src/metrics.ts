import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ConsumerObserver, ConsumedRecord } from '@baton/kafka';

/** Metric names, in one place: Prometheus conventions, units in names, `_total` on counters. */
export const METRIC_NAMES = {
  handoffsConsumed: 'baton_handoffs_consumed_total',
  processingSeconds: 'baton_handoff_processing_seconds',
  retries: 'baton_handoff_retries_total',
  deadLetters: 'baton_dead_letters_total',
} as const;

function handoffType(record: ConsumedRecord): string {
  return record.headers.ce_type ?? 'unknown';
}

/** A registry with Node's default metrics and the consumer's, labelled with the service. */
export function createMetrics(service: string): { registry: Registry; observer: ConsumerObserver } {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const consumed = new Counter({
    name: METRIC_NAMES.handoffsConsumed,
    help: 'Handoffs consumed, by handoff_type and result (processed, duplicate, dead_lettered)',
    labelNames: ['topic', 'handoff_type', 'result'],
    registers: [registry],
  });
  const processing = new Histogram({
    name: METRIC_NAMES.processingSeconds,
    help: 'Time from taking a handoff to committing its outputs, by handoff_type',
    labelNames: ['handoff_type'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const retries = new Counter({
    name: METRIC_NAMES.retries,
    help: 'Retries scheduled after transient failures, by handoff_type and error code',
    labelNames: ['handoff_type', 'code'],
    registers: [registry],
  });
  const deadLetters = new Counter({
    name: METRIC_NAMES.deadLetters,
    help: 'Records sent to a dead-letter topic, by reason (error code)',
    labelNames: ['topic', 'reason'],
    registers: [registry],
  });
  const observer: ConsumerObserver = {
    processed: ({ record, durationMs }) => {
      consumed.inc({ topic: record.topic, handoff_type: handoffType(record), result: 'processed' });
      processing.observe({ handoff_type: handoffType(record) }, durationMs / 1000);
    },
    duplicate: ({ record }) =>
      consumed.inc({ topic: record.topic, handoff_type: handoffType(record), result: 'duplicate' }),
    retryScheduled: ({ record, error }) => retries.inc({ handoff_type: handoffType(record), code: error.code }),
    deadLettered: ({ record, error }) => {
      consumed.inc({ topic: record.topic, handoff_type: handoffType(record), result: 'dead_lettered' });
      deadLetters.inc({ topic: record.topic, reason: error.code });
    },
  };
  return { registry, observer };
}
