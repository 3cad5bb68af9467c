import { hasErrorCode } from '@baton/errors';
import { describe, expect, it } from 'vitest';
import { agentCard, agentCardInfo, pascalCase } from './agent-card.js';

const handle = () => undefined;
const instance = { instanceId: 'sales-1', startedAt: new Date('2026-01-01T12:00:00.000Z'), heartbeatIntervalMs: 5_000 };

describe('agent cards', () => {
  it('defaults every field from the id and the handlers', () => {
    expect(pascalCase('level3_network_expert_agent_pool')).toBe('Level3NetworkExpertAgentPool');
    expect(agentCardInfo({ id: 'probe_agent', handlers: { STATUS_UPDATE: handle, ESCALATION: handle } })).toEqual({
      agent_id: 'probe_agent',
      name: 'ProbeAgent',
      domain: 'default',
      // In the protocol's order of handoff types, not the handlers' order.
      skills: [{ name: 'ESCALATION' }, { name: 'STATUS_UPDATE' }],
      input_modes: ['TEXT'],
      output_modes: ['TEXT'],
      version: '1.0.0',
    });
  });

  it('takes what the definition states, skills by name or with a description', () => {
    const card = agentCard(
      {
        id: 'sales_agent',
        handlers: { TASK_TRANSFER: handle },
        card: {
          name: 'SalesAgent',
          domain: 'sales',
          description: 'Sells from the catalogue',
          skills: ['execute_order', { name: 'quote', description: 'Quotes a price' }],
          input_modes: ['TEXT', 'IMAGE'],
          version: '2.1.0',
        },
      },
      instance,
    );
    expect(card).toEqual({
      agent_id: 'sales_agent',
      name: 'SalesAgent',
      domain: 'sales',
      description: 'Sells from the catalogue',
      skills: [{ name: 'execute_order' }, { name: 'quote', description: 'Quotes a price' }],
      input_modes: ['TEXT', 'IMAGE'],
      output_modes: ['TEXT'],
      version: '2.1.0',
      instance_id: 'sales-1',
      started_at: '2026-01-01T12:00:00.000Z',
      heartbeat_interval_ms: 5_000,
    });
  });

  it('refuses a malformed card with CONFIG_INVALID naming the field', () => {
    const attempt = () =>
      agentCard({ id: 'a', handlers: {}, card: { output_modes: ['VIDEO' as never], skills: ['ok'] } }, instance);
    expect(attempt).toThrow(/agent a: .*output_modes\/0/);
    try {
      attempt();
    } catch (error) {
      expect(hasErrorCode(error, 'CONFIG_INVALID')).toBe(true);
    }
  });
});
