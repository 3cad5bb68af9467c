import { loadRegistryConfig } from '@baton/agent-registry';
import { BatonError } from '@baton/errors';
import { loadServiceConfig, type ServiceConfig } from '@baton/runtime';
import { parseApiKeys, type ApiKey } from './access/api-keys.js';

export interface GatewayConfig extends ServiceConfig {
  apiKeys: ApiKey[];
  /** Topics a replay may go to besides the dead letter's source; empty: the inbound topic and every agent inbox. */
  replayTargets: string[];
  /** How long a publish may wait for Kafka before the answer is 503. */
  publishTimeoutMs: number;
  /** Dead letters kept in memory per DLQ topic; older ones are still counted. */
  deadLettersPerTopic: number;
  /** Tasks whose timelines are kept in memory; the least recently updated go first. */
  timelineTasks: number;
  /** BATON_LIVENESS_WINDOW_MS; undefined: 3 heartbeat intervals of each agent instance. */
  livenessWindowMs: number | undefined;
}

type Env = Record<string, string | undefined>;

function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new BatonError('CONFIG_INVALID', `${name} must be a positive integer, not "${raw}"`, {
      path: `/env/${name}`,
    });
  }
  return value;
}

export function loadGatewayConfig(env: Env = process.env): Readonly<GatewayConfig> {
  return Object.freeze({
    ...loadServiceConfig('gateway', env),
    apiKeys: parseApiKeys(env.BATON_API_KEYS ?? ''),
    replayTargets: (env.BATON_REPLAY_TARGETS ?? '')
      .split(',')
      .map((topic) => topic.trim())
      .filter(Boolean),
    publishTimeoutMs: positiveInteger(env, 'BATON_PUBLISH_TIMEOUT_MS', 10_000),
    deadLettersPerTopic: positiveInteger(env, 'BATON_DLQ_INDEX_LIMIT', 50_000),
    timelineTasks: positiveInteger(env, 'BATON_TIMELINE_TASKS', 100_000),
    livenessWindowMs: loadRegistryConfig(env).livenessWindowMs,
  });
}
