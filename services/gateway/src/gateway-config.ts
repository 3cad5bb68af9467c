import { loadRegistryConfig } from '@baton/agent-registry';
import {
  DEFAULT_INLINE_MAX_BYTES,
  MAX_INLINE_MAX_BYTES,
  integerSetting,
  loadServiceConfig,
  type ServiceConfig,
} from '@baton/runtime';
import { parseApiKeys, type ApiKey } from './access/api-keys.js';

export interface GatewayConfig extends ServiceConfig {
  apiKeys: ApiKey[];
  /** Topics a replay may go to besides the dead letter's source; empty: the inbound topic and every agent inbox. */
  replayTargets: string[];
  /** How long a publish may wait for Kafka before the answer is 503. */
  publishTimeoutMs: number;
  /** Contexts of negotiations opened over HTTP whose JSON is longer than this go by reference. */
  contextInlineMaxBytes: number;
  /** Dead letters kept in memory per DLQ topic; older ones are still counted. */
  deadLettersPerTopic: number;
  /** Tasks whose timelines are kept in memory; the least recently updated go first. */
  timelineTasks: number;
  /** BATON_LIVENESS_WINDOW_MS; undefined: 3 heartbeat intervals of each agent instance. */
  livenessWindowMs: number | undefined;
}

type Env = Record<string, string | undefined>;

export function loadGatewayConfig(env: Env = process.env): Readonly<GatewayConfig> {
  return Object.freeze({
    ...loadServiceConfig('gateway', env),
    apiKeys: parseApiKeys(env.BATON_API_KEYS ?? ''),
    replayTargets: (env.BATON_REPLAY_TARGETS ?? '')
      .split(',')
      .map((topic) => topic.trim())
      .filter(Boolean),
    publishTimeoutMs: integerSetting(env, 'BATON_PUBLISH_TIMEOUT_MS', 10_000),
    contextInlineMaxBytes: integerSetting(
      env,
      'BATON_CONTEXT_INLINE_MAX_BYTES',
      DEFAULT_INLINE_MAX_BYTES,
      0,
      MAX_INLINE_MAX_BYTES,
    ),
    deadLettersPerTopic: integerSetting(env, 'BATON_DLQ_INDEX_LIMIT', 50_000),
    timelineTasks: integerSetting(env, 'BATON_TIMELINE_TASKS', 100_000),
    livenessWindowMs: loadRegistryConfig(env).livenessWindowMs,
  });
}
