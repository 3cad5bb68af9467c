import { loadRegistryConfig } from '@baton/agent-registry';
import { DEFAULT_INLINE_MAX_BYTES, MAX_INLINE_MAX_BYTES } from '@baton/negotiation';
import { integerSetting, loadServiceConfig, type HttpTls, type ServiceConfig } from '@baton/runtime';
import {
  DEFAULT_BOOK_MAX_EVENTS,
  DEFAULT_BOOK_MAX_EVENTS_PER_TASK,
  DEFAULT_INDEX_MAX_TASKS,
  DEFAULT_STUCK_AFTER_MS,
} from '@baton/task-tracking';
import { BatonError } from '@baton/errors';
import { parseApiKeys, type ApiKey } from './access/api-keys.js';
import type { JwtSettings } from './access/jwt.js';
import { loadHttpTls } from './http/http-tls-config.js';

export interface GatewayConfig extends ServiceConfig {
  apiKeys: ApiKey[];
  /** Bearer JWTs of an OAuth2 issuer (BATON_JWT_*); undefined unless BATON_JWT_ISSUER is set. */
  jwt: JwtSettings | undefined;
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
  /** Timeline entries kept in memory over all tasks (about 500 bytes of heap each); the least recently updated tasks go first. */
  timelineEvents: number;
  /** Timeline entries kept per task, the newest. */
  timelineEventsPerTask: number;
  /** Tasks the task list keeps (a small row each, past timelineTasks too); the oldest-created go first. */
  taskListTasks: number;
  /** How long an EXECUTING task may go without an event before the list shows it stuck. */
  taskStuckAfterMs: number;
  /** BATON_LIVENESS_WINDOW_MS; undefined: 3 heartbeat intervals of each agent instance. */
  livenessWindowMs: number | undefined;
  /** BATON_HTTP_TLS_CERT_FILE and _KEY_FILE (and _KEY_PASSWORD_FILE) read: the API over HTTPS; undefined: plain HTTP. */
  httpTls: HttpTls | undefined;
  /**
   * The router's sender policy and the routing table it is checked against (AUTHORIZATION_POLICY,
   * ROUTING_TABLE), by which a replay into an agent's inbox is judged; undefined: no policy.
   */
  senderPolicy: { policyFile: string; routingTableFile: string } | undefined;
}

type Env = Record<string, string | undefined>;

function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function httpUrl(env: Env, name: string): string {
  const value = setting(env, name);
  const where = { path: `/env/${name}` };
  if (value === undefined) throw new BatonError('CONFIG_INVALID', `${name} is required with BATON_JWT_ISSUER`, where);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BatonError('CONFIG_INVALID', `${name} is not a URL: "${value}"`, where);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BatonError('CONFIG_INVALID', `${name} must be an http(s) URL, not "${value}"`, where);
  }
  return url.href;
}

/** BATON_JWT_*: JWT authentication is off unless BATON_JWT_ISSUER is set; then the audience and key set URL are required. */
function loadJwtSettings(env: Env): JwtSettings | undefined {
  const issuer = setting(env, 'BATON_JWT_ISSUER');
  if (issuer === undefined) return undefined;
  const audience = setting(env, 'BATON_JWT_AUDIENCE');
  if (audience === undefined) {
    throw new BatonError('CONFIG_INVALID', 'BATON_JWT_AUDIENCE is required with BATON_JWT_ISSUER', {
      path: '/env/BATON_JWT_AUDIENCE',
    });
  }
  return {
    issuer,
    audience,
    jwksUrl: httpUrl(env, 'BATON_JWT_JWKS_URL'),
    rolesClaim: setting(env, 'BATON_JWT_ROLES_CLAIM') ?? 'roles',
    sendersClaim: setting(env, 'BATON_JWT_SENDERS_CLAIM'),
    jwksCooldownMs: 30_000,
  };
}

/** AUTHORIZATION_POLICY names the policy; its recipients are checked against ROUTING_TABLE, so it needs that too. */
function loadSenderPolicySettings(env: Env): GatewayConfig['senderPolicy'] {
  const policyFile = setting(env, 'AUTHORIZATION_POLICY');
  if (policyFile === undefined) return undefined;
  const routingTableFile = setting(env, 'ROUTING_TABLE');
  if (routingTableFile === undefined) {
    throw new BatonError('CONFIG_INVALID', 'ROUTING_TABLE is required with AUTHORIZATION_POLICY', {
      path: '/env/ROUTING_TABLE',
    });
  }
  return { policyFile, routingTableFile };
}

export function loadGatewayConfig(env: Env = process.env): Readonly<GatewayConfig> {
  return Object.freeze({
    ...loadServiceConfig('gateway', env),
    apiKeys: parseApiKeys(env.BATON_API_KEYS ?? ''),
    jwt: loadJwtSettings(env),
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
    timelineEvents: integerSetting(env, 'BATON_TIMELINE_EVENTS', DEFAULT_BOOK_MAX_EVENTS),
    timelineEventsPerTask: integerSetting(env, 'BATON_TIMELINE_EVENTS_PER_TASK', DEFAULT_BOOK_MAX_EVENTS_PER_TASK),
    taskListTasks: integerSetting(env, 'BATON_TASK_LIST_TASKS', DEFAULT_INDEX_MAX_TASKS),
    taskStuckAfterMs: integerSetting(env, 'BATON_TASK_STUCK_AFTER_S', DEFAULT_STUCK_AFTER_MS / 1_000, 1) * 1_000,
    livenessWindowMs: loadRegistryConfig(env).livenessWindowMs,
    httpTls: loadHttpTls(env),
    senderPolicy: loadSenderPolicySettings(env),
  });
}
