import { hasErrorCode } from '@baton/errors';
import { describe, expect, it } from 'vitest';
import {
  deregistrationRecord,
  parseAgentRegistration,
  parseRegistrationKey,
  registrationRecord,
  type AgentCard,
} from './agent-card.js';
import { loadRegistryConfig } from './registry-config.js';

const card: AgentCard = {
  agent_id: 'sales_agent',
  name: 'SalesAgent',
  domain: 'sales',
  skills: [{ name: 'execute_order' }],
  input_modes: ['TEXT'],
  output_modes: ['TEXT'],
  version: '1.0.0',
  instance_id: 'sales-1',
  started_at: '2026-01-01T12:00:00.000Z',
  heartbeat_interval_ms: 5_000,
};

describe('registry records', () => {
  it('keys an instance <agent_id>/<instance_id> and round-trips its card and heartbeat', () => {
    const record = registrationRecord('baton.agents', card, new Date('2026-01-01T12:00:05.000Z'));
    expect(record.key).toBe('sales_agent/sales-1');
    expect(record.headers).toEqual({ 'content-type': 'application/json' });
    expect(parseAgentRegistration(record.value)).toEqual({ card, last_heartbeat_at: '2026-01-01T12:00:05.000Z' });
    expect(deregistrationRecord('baton.agents', 'sales_agent', 'sales-1')).toEqual({
      topic: 'baton.agents',
      key: 'sales_agent/sales-1',
      value: null,
    });
  });

  it('round-trips the failures a heartbeat tells of', () => {
    const failures = { window_ms: 60_000, counts: { MODEL_UNAVAILABLE: 67, TOOL_FAILED: 2 } };
    const record = registrationRecord('baton.agents', card, new Date('2026-01-01T12:00:05.000Z'), failures);
    expect(parseAgentRegistration(record.value)).toEqual({
      card,
      last_heartbeat_at: '2026-01-01T12:00:05.000Z',
      failures,
    });
  });

  it('splits a key at its first slash, so an instance id may contain slashes', () => {
    expect(parseRegistrationKey('sales_agent/pod/7')).toEqual({ agentId: 'sales_agent', instanceId: 'pod/7' });
    expect(parseRegistrationKey('sales_agent')).toBeUndefined();
  });

  it.each([
    ['not JSON', 'nope', ''],
    [
      'a card without a domain',
      JSON.stringify({ card: { ...card, domain: '' }, last_heartbeat_at: card.started_at }),
      '/card/domain',
    ],
    [
      'an unknown mode',
      JSON.stringify({ card: { ...card, input_modes: ['VIDEO'] }, last_heartbeat_at: card.started_at }),
      '/card/input_modes/0',
    ],
    [
      'a bad interval',
      JSON.stringify({ card: { ...card, heartbeat_interval_ms: 0 }, last_heartbeat_at: card.started_at }),
      '/card/heartbeat_interval_ms',
    ],
    ['a bad heartbeat time', JSON.stringify({ card, last_heartbeat_at: 'yesterday' }), '/last_heartbeat_at'],
    [
      'a failure count that is no count',
      JSON.stringify({
        card,
        last_heartbeat_at: card.started_at,
        failures: { window_ms: 60_000, counts: { MODEL_UNAVAILABLE: -1 } },
      }),
      '/failures/counts/MODEL_UNAVAILABLE',
    ],
  ])('refuses %s', (_name, value, path) => {
    const error = (() => {
      try {
        parseAgentRegistration(value);
      } catch (caught) {
        return caught;
      }
    })();
    expect(hasErrorCode(error, 'VALIDATION_FAILED')).toBe(true);
    expect((error as { path: string }).path).toBe(path);
  });
});

describe('loadRegistryConfig', () => {
  it('defaults to 5 s heartbeats and a window of 3 intervals of each instance', () => {
    expect(loadRegistryConfig({})).toEqual({ heartbeatIntervalMs: 5_000, livenessWindowMs: undefined });
    expect(loadRegistryConfig({ BATON_HEARTBEAT_INTERVAL_MS: '500', BATON_LIVENESS_WINDOW_MS: '1500' })).toEqual({
      heartbeatIntervalMs: 500,
      livenessWindowMs: 1_500,
    });
  });

  it('refuses a bad value, naming the variable', () => {
    expect(() => loadRegistryConfig({ BATON_HEARTBEAT_INTERVAL_MS: 'soon' })).toThrow(/BATON_HEARTBEAT_INTERVAL_MS/);
    expect(() => loadRegistryConfig({ BATON_LIVENESS_WINDOW_MS: '0' })).toThrow(/BATON_LIVENESS_WINDOW_MS/);
  });
});
