import { describe, expect, it } from 'vitest';
import type { AgentCard } from '@baton/agent-registry';
import {
  handoffToolDescription,
  handoffToolDescriptions,
  modelToolSet,
  type ModelHandoffTarget,
} from './model-tool.js';

const SALES_CARD: AgentCard = {
  agent_id: 'sales_agent',
  name: 'SalesAgent',
  domain: 'sales',
  description: 'Anything sales or buying related.',
  skills: [{ name: 'execute_order', description: 'Places an order' }, { name: 'product_catalogue' }],
  input_modes: ['TEXT'],
  output_modes: ['TEXT'],
  version: '1.0.0',
  instance_id: 'sales-1',
  started_at: '2026-11-25T10:00:00.000Z',
  heartbeat_interval_ms: 5_000,
};

const SALES: ModelHandoffTarget = { to: 'sales_agent', description: 'Use for anything sales or buying related.' };

describe('handoffToolDescription', () => {
  it("gives the sender's words, then the receiver's card: its name, description and skills", () => {
    expect(handoffToolDescription(SALES, SALES_CARD)).toBe(
      'Use for anything sales or buying related.\n' +
        'Hands the conversation to SalesAgent: Anything sales or buying related. ' +
        'Its skills: execute_order (Places an order); product_catalogue.',
    );
  });

  it('gives the card alone without words, its domain without a description, and the target without a card', () => {
    const bare: AgentCard = { ...SALES_CARD, skills: [] };
    delete bare.description;
    expect(handoffToolDescription({ to: 'sales_agent' }, bare)).toBe('Hands the conversation to SalesAgent: sales');
    expect(handoffToolDescription(SALES, undefined)).toBe('Use for anything sales or buying related.');
    expect(handoffToolDescription({ to: 'sales_agent' }, undefined)).toBe('Hands the conversation to sales_agent.');
  });
});

describe('handoffToolDescriptions and modelToolSet', () => {
  it("offers each handoff tool with its target's card, as the registry has it", async () => {
    const escalate: ModelHandoffTarget = { to: 'human_agent', tool: 'escalate_to_human', kind: 'escalation' };
    const asked: string[] = [];
    const descriptions = await handoffToolDescriptions([SALES, escalate], async (agentId) => {
      asked.push(agentId);
      return agentId === 'sales_agent' ? SALES_CARD : undefined;
    });
    expect(asked).toEqual(['sales_agent', 'human_agent']);
    const tools = await modelToolSet([], [SALES, escalate], descriptions);
    expect(Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, tool.description]))).toEqual({
      transfer_to_sales_agent: handoffToolDescription(SALES, SALES_CARD),
      escalate_to_human: 'Hands the conversation to human_agent.',
    });
  });
});
