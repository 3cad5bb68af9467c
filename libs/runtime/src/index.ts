export {
  buildHandoffService,
  combineObservers,
  type HandoffService,
  type HandoffServiceDefinition,
  type HandoffServiceContext,
} from './handoff-service.js';
export { component, concurrently, type Component, type ComponentParts } from './chassis/component.js';
export { Service, type ServiceOptions } from './chassis/service.js';
export { HttpServer, type HttpServerOptions, type HttpTls } from './chassis/http-server.js';
export { runService } from './chassis/run-service.js';
export { handoffProcessor, recordFacts, type HandoffProcessorOptions } from './handoff-processor.js';
export type { Handoff } from './handoff.js';
export { handoffRecord, handoffHeaders } from './handoff-record.js';
export { HandoffPublisher, type PublishedRecord, type PublishOptions } from './handoff-publisher.js';
export { outcomeRefusals } from './outcome-refusals.js';
export { outcomeRecord, OUTCOME_EVENT_TYPE_PREFIX, type OutcomeFacts } from './outcome-record.js';
export { messageStages, personalDataContextStage, personalDataKeyRing } from './message-stages.js';
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
export { HotCounter, type HotCounterConfig } from './hot-counter.js';
export {
  HandoffLabeller,
  issueCategoryOf,
  BoundedLabelValues,
  NO_ISSUE_CATEGORY,
  type HandoffLabels,
} from './handoff-labels.js';
export { cachedProbe, type CachedProbeOptions } from './cached-probe.js';
