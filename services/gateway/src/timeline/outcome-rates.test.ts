import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '@baton/protocol';
import { OutcomeRates } from './outcome-rates.js';

const NOW = Date.parse('2026-11-24T10:14:30.000Z');

function outcome(time: string, kind: string, agentId = 'router'): TaskEvent {
  return { kind: 'outcome', value: { time, outcome: kind, agent_id: agentId } } as unknown as TaskEvent;
}

describe('OutcomeRates', () => {
  it('counts outcomes per minute over the window, oldest first, quiet minutes empty', () => {
    let now = NOW;
    const rates = new OutcomeRates(3, () => now);
    rates.add(outcome('2026-11-24T10:14:01.000Z', 'COMPLETED'));
    rates.add(outcome('2026-11-24T10:14:59.000Z', 'COMPLETED'));
    rates.add(outcome('2026-11-24T10:12:10.000Z', 'ROUTED'));
    rates.add(outcome('2026-11-24T10:11:59.000Z', 'ROUTED'));
    rates.add({ kind: 'staged', value: {} } as unknown as TaskEvent);
    expect(rates.window()).toEqual([
      { minute: '2026-11-24T10:12:00.000Z', outcomes: { ROUTED: 1 } },
      { minute: '2026-11-24T10:13:00.000Z', outcomes: {} },
      { minute: '2026-11-24T10:14:00.000Z', outcomes: { COMPLETED: 2 } },
    ]);
    now += 2 * 60_000;
    expect(rates.window().map((minute) => Object.keys(minute.outcomes).length)).toEqual([1, 0, 0]);
  });

  it("totals each agent's outcomes over the window", () => {
    let now = NOW;
    const rates = new OutcomeRates(3, () => now);
    rates.add(outcome('2026-11-24T10:14:01.000Z', 'ROUTED'));
    rates.add(outcome('2026-11-24T10:13:01.000Z', 'COMPLETED', 'sales_agent'));
    rates.add(outcome('2026-11-24T10:14:02.000Z', 'COMPLETED', 'sales_agent'));
    rates.add(outcome('2026-11-24T10:12:02.000Z', 'DEAD_LETTERED', 'sales_agent'));
    expect(Object.fromEntries(rates.byAgent())).toEqual({
      router: { ROUTED: 1 },
      sales_agent: { COMPLETED: 2, DEAD_LETTERED: 1 },
    });
    now += 60_000;
    expect(rates.byAgent().get('sales_agent')).toEqual({ COMPLETED: 2 });
  });
});
