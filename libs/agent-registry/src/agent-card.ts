import { BatonError } from '@baton/errors';
import type { RecentFailures } from './failure-tally.js';

/** The modalities an agent takes and gives. */
export const AGENT_MODES = ['TEXT', 'IMAGE', 'AUDIO', 'EMBEDDED'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

/** One thing an agent can do: a skill's name and what it does. */
export interface AgentSkill {
  name: string;
  description?: string;
}

/**
 * What a running agent instance tells the registry about itself (id, name, domain, skills, modes, version, plus the
 * instance and its heartbeat interval). The agent-level fields come from the agent's definition.
 */
export interface AgentCard {
  agent_id: string;
  name: string;
  domain: string;
  description?: string;
  skills: AgentSkill[];
  input_modes: AgentMode[];
  output_modes: AgentMode[];
  version: string;
  instance_id: string;
  /** ISO 8601: when the instance started. */
  started_at: string;
  /** How often the instance re-publishes its record; a reader's liveness window defaults to 3 times it. */
  heartbeat_interval_ms: number;
}

/** The value of a record in `<prefix>.agents`: a card with the time of its latest heartbeat. */
export interface AgentRegistration {
  card: AgentCard;
  /** ISO 8601, the instance's clock. */
  last_heartbeat_at: string;
  /** What the instance depends on that failed lately (its model, its tools); absent when nothing did. */
  failures?: RecentFailures;
}

/** The key of an instance's records: `<agent_id>/<instance_id>`. Agent ids never contain `/`. */
export function registrationKey(agentId: string, instanceId: string): string {
  return `${agentId}/${instanceId}`;
}

/** The agent and instance a key names; undefined when it is not `<agent_id>/<instance_id>`. */
export function parseRegistrationKey(key: string): { agentId: string; instanceId: string } | undefined {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) return undefined;
  return { agentId: key.slice(0, slash), instanceId: key.slice(slash + 1) };
}

function invalid(message: string, path: string): never {
  throw new BatonError('VALIDATION_FAILED', `agent registration: ${message}`, { path });
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') invalid(`${path} must be a non-empty string`, path);
  return value;
}

function modes(value: unknown, path: string): AgentMode[] {
  if (!Array.isArray(value) || value.length === 0) invalid(`${path} must be a non-empty list of modes`, path);
  return value.map((mode, index) => {
    if (!(AGENT_MODES as readonly unknown[]).includes(mode)) {
      invalid(`${path}/${index} must be one of ${AGENT_MODES.join(', ')}`, `${path}/${index}`);
    }
    return mode as AgentMode;
  });
}

function skills(value: unknown, path: string): AgentSkill[] {
  if (!Array.isArray(value)) invalid(`${path} must be a list`, path);
  return value.map((skill: unknown, index) => {
    const at = `${path}/${index}`;
    if (typeof skill !== 'object' || skill === null) invalid(`${at} must be an object`, at);
    const { name, description } = skill as Record<string, unknown>;
    return {
      name: text(name, `${at}/name`),
      ...(description === undefined ? {} : { description: text(description, `${at}/description`) }),
    };
  });
}

function timestamp(value: unknown, path: string): string {
  const at = text(value, path);
  if (Number.isNaN(Date.parse(at))) invalid(`${path} must be an ISO 8601 time`, path);
  return at;
}

/** Checks a card field by field; throws VALIDATION_FAILED naming the first bad field. */
export function parseAgentCard(value: unknown, path = '/card'): AgentCard {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(`${path} must be an object`, path);
  const card = value as Record<string, unknown>;
  const interval = card.heartbeat_interval_ms;
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 1) {
    invalid(`${path}/heartbeat_interval_ms must be a positive integer`, `${path}/heartbeat_interval_ms`);
  }
  return {
    agent_id: text(card.agent_id, `${path}/agent_id`),
    name: text(card.name, `${path}/name`),
    domain: text(card.domain, `${path}/domain`),
    ...(card.description === undefined ? {} : { description: text(card.description, `${path}/description`) }),
    skills: skills(card.skills, `${path}/skills`),
    input_modes: modes(card.input_modes, `${path}/input_modes`),
    output_modes: modes(card.output_modes, `${path}/output_modes`),
    version: text(card.version, `${path}/version`),
    instance_id: text(card.instance_id, `${path}/instance_id`),
    started_at: timestamp(card.started_at, `${path}/started_at`),
    heartbeat_interval_ms: interval,
  };
}

/** A record value of `<prefix>.agents`, checked; throws VALIDATION_FAILED. */
export function parseAgentRegistration(value: Buffer | string): AgentRegistration {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString());
  } catch {
    invalid('the value is not JSON', '');
  }
  if (typeof parsed !== 'object' || parsed === null) invalid('the value must be an object', '');
  const record = parsed as Record<string, unknown>;
  return {
    card: parseAgentCard(record.card),
    last_heartbeat_at: timestamp(record.last_heartbeat_at, '/last_heartbeat_at'),
    ...(record.failures === undefined ? {} : { failures: recentFailures(record.failures, '/failures') }),
  };
}

function recentFailures(value: unknown, path: string): RecentFailures {
  if (typeof value !== 'object' || value === null) invalid(`${path} must be an object`, path);
  const { window_ms: windowMs, counts } = value as Record<string, unknown>;
  if (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs < 1) {
    invalid(`${path}/window_ms must be a positive integer`, `${path}/window_ms`);
  }
  if (typeof counts !== 'object' || counts === null || Array.isArray(counts)) {
    invalid(`${path}/counts must be an object of counts by error code`, `${path}/counts`);
  }
  for (const [code, count] of Object.entries(counts)) {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
      invalid(`${path}/counts/${code} must be a positive integer`, `${path}/counts/${code}`);
    }
  }
  return { window_ms: windowMs, counts: { ...(counts as Record<string, number>) } };
}

/** The record that (re-)publishes an instance's card: every heartbeat is one. */
export function registrationRecord(
  topic: string,
  card: AgentCard,
  heartbeatAt: Date,
  failures?: RecentFailures,
): { topic: string; key: string; value: Buffer; headers: Record<string, string> } {
  const registration: AgentRegistration = {
    card,
    last_heartbeat_at: heartbeatAt.toISOString(),
    ...(failures === undefined ? {} : { failures }),
  };
  return {
    topic,
    key: registrationKey(card.agent_id, card.instance_id),
    value: Buffer.from(JSON.stringify(registration)),
    headers: { 'content-type': 'application/json' },
  };
}

/** The tombstone that deregisters an instance: compaction then forgets the key. */
export function deregistrationRecord(
  topic: string,
  agentId: string,
  instanceId: string,
): { topic: string; key: string; value: null } {
  return { topic, key: registrationKey(agentId, instanceId), value: null };
}
