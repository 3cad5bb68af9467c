export {
  HandoffService,
  combineObservers,
  type HandoffServiceDefinition,
  type HandoffServiceContext,
} from './handoff-service.js';
export { handoffProcessor, type Handoff, type HandoffProcessorOptions } from './handoff-processor.js';
export { handoffRecord, handoffHeaders } from './handoff-record.js';
export { HandoffPublisher, type PublishedRecord } from './handoff-publisher.js';
export { outcomeRecord, OUTCOME_EVENT_TYPE_PREFIX, type OutcomeFacts } from './outcome-record.js';
export { lifecycleRecord, stagedContextRecord, LIFECYCLE_EVENT_TYPE_PREFIX } from './lifecycle-record.js';
export {
  HANDOFF_CONTEXT_SCHEMA_VERSION,
  CONTEXT_CONTENT_TYPE,
  DEFAULT_INLINE_MAX_BYTES,
  MAX_INLINE_MAX_BYTES,
  chooseContextTransfer,
  contextTransferPayload,
  handoffContextData,
  type ContextSink,
  type ContextTransferChoice,
  type HandoffContextData,
} from './negotiation/handoff-context.js';
export {
  handoffTerms,
  negotiationOpening,
  openNegotiation,
  openingRecords,
  soleRecipient,
  type NegotiationOpener,
  type NegotiationOpening,
  type RequestTerms,
} from './negotiation/negotiation-opening.js';
export { controlTopicCreator, type ControlTopicsOptions } from './negotiation/control-topics.js';
export { loadServiceConfig, integerSetting, type ServiceConfig } from './service-config.js';
export { createLogger, messageLogger, redactPersonalData, type Logger } from './logger.js';
export {
  createServiceMetrics,
  consumerMetrics,
  eventLabels,
  registerConsumerLag,
  registerSchemaRegistryUp,
  METRIC_NAMES,
  type ConsumerLagOptions,
  type ScrapeProbeOptions,
  type ServiceMetricsOptions,
} from './metrics.js';
// prom-client's metric types, so a service registers its own metrics without depending on it.
export { Counter, Gauge, Histogram, type Registry } from 'prom-client';
export {
  handoffLabels,
  issueCategoryOf,
  BoundedLabelValues,
  NO_ISSUE_CATEGORY,
  type HandoffLabels,
} from './handoff-labels.js';
export { cachedProbe, type CachedProbeOptions } from './cached-probe.js';
export { buildHealthApp, listeningAddress, registerHealthRoutes, type HealthAppOptions } from './health-app.js';
export { runUntilSignalled } from './run-until-signalled.js';
