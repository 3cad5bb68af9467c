export {
  AGENT_MODES,
  parseAgentCard,
  parseAgentRegistration,
  parseRegistrationKey,
  registrationKey,
  registrationRecord,
  deregistrationRecord,
  type AgentCard,
  type AgentMode,
  type AgentRegistration,
  type AgentSkill,
} from './agent-card.js';
export {
  loadRegistryConfig,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  LIVENESS_INTERVALS,
  type RegistryConfig,
} from './registry-config.js';
export { isLive, livenessWindowMs } from './liveness.js';
export {
  AgentRegistryView,
  type AgentAvailability,
  type AgentRegistryViewOptions,
  type InstanceStatus,
  type RegisteredAgent,
} from './agent-registry-view.js';
export { AGENTS_TOPIC_CONFIG, agentsTopicSpec, ensureAgentsTopic } from './agents-topic.js';
export {
  AgentHeartbeat,
  kafkaRegistrySink,
  type AgentHeartbeatOptions,
  type RegistryRecord,
  type RegistrySink,
} from './agent-heartbeat.js';
export { AgentRegistryReader, type AgentRegistryReaderOptions } from './agent-registry-reader.js';
export type { RegistryLogger } from './registry-logger.js';
export { FailureTally, FAILURE_WINDOW_MS, type RecentFailures } from './failure-tally.js';
