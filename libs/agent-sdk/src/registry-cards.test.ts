import { describe, expect, it } from 'vitest';
import { registrationKey, type AgentCard } from '@baton/agent-registry';
import type { HandoffServiceContext, Logger } from '@baton/runtime';
import { CARD_MAX_AGE_MS, RegistryCards, type RegistryReading } from './registry-cards.js';

const T0 = Date.parse('2026-11-25T10:00:00.000Z');

function card(agentId: string, description: string): AgentCard {
  return {
    agent_id: agentId,
    name: agentId,
    domain: 'sales',
    description,
    skills: [],
    input_modes: ['TEXT'],
    output_modes: ['TEXT'],
    version: '1.0.0',
    instance_id: `${agentId}-1`,
    started_at: new Date(T0).toISOString(),
    heartbeat_interval_ms: 5_000,
  };
}

/** A registry whose reads apply the records `published` holds then, or fail while `down`. */
function registry() {
  const state = { now: T0, reads: 0, down: false, published: [] as AgentCard[] };
  const warnings: unknown[] = [];
  const logger = { warn: (fields: unknown) => warnings.push(fields) } as unknown as Logger;
  const cards = new RegistryCards(
    'triage',
    { livenessWindowMs: undefined },
    () => new Date(state.now),
    (_context, view): RegistryReading => {
      const read = async () => {
        state.reads += 1;
        if (state.down) throw new Error('broker down');
        for (const published of state.published) {
          view.apply(registrationKey(published.agent_id, published.instance_id), {
            card: published,
            last_heartbeat_at: new Date(state.now).toISOString(),
          });
        }
      };
      return { start: read, refresh: read, stop: async () => undefined };
    },
  );
  return { state, warnings, logger, cards };
}

describe('RegistryCards', () => {
  it('answers a card from the registry read at start, and reads again only once it is 30 s old', async () => {
    const { state, logger, cards } = registry();
    state.published = [card('sales', 'Sells things.')];
    await cards.component({} as HandoffServiceContext).start?.();
    expect(state.reads).toBe(1);

    state.published = [card('sales', 'Sells everything.')];
    state.now += CARD_MAX_AGE_MS - 1;
    expect((await cards.card('sales', logger))?.description).toBe('Sells things.');
    expect(state.reads).toBe(1);

    state.now += 1;
    expect((await cards.card('sales', logger))?.description).toBe('Sells everything.');
    expect(state.reads).toBe(2);
  });

  it('reads again for an agent it has no card of, which may have registered since', async () => {
    const { state, logger, cards } = registry();
    await cards.component({} as HandoffServiceContext).start?.();
    expect(await cards.card('refunds', logger)).toBeUndefined();
    expect(state.reads).toBe(2);
    state.published = [card('refunds', 'Refunds.')];
    expect((await cards.card('refunds', logger))?.description).toBe('Refunds.');
    expect(state.reads).toBe(3);
  });

  it('answers the card last read, and logs why, when the registry cannot be read', async () => {
    const { state, warnings, logger, cards } = registry();
    state.published = [card('sales', 'Sells things.')];
    await cards.component({} as HandoffServiceContext).start?.();
    state.down = true;
    state.now += CARD_MAX_AGE_MS;
    expect((await cards.card('sales', logger))?.description).toBe('Sells things.');
    expect(warnings).toEqual([
      expect.objectContaining({ event: 'registry.refresh_failed', code: 'KAFKA_UNAVAILABLE' }),
    ]);
    await expect(cards.liveCards()).rejects.toMatchObject({ code: 'KAFKA_UNAVAILABLE' });
  });
});
