// Pure planning, no broker: it sits beside the helper it tests (the integration project's files).
import { describe, expect, it } from 'vitest';
import { cappedStep, pairOrder, planKillSteps, seededRandom } from './kill-plan.js';

describe('planKillSteps', () => {
  it('draws one step per kill within bounds', () => {
    for (let seed = 1; seed <= 50; seed += 1) {
      const steps = planKillSteps(6, 5_000, seededRandom(seed));

      expect(steps).toHaveLength(6);
      for (const step of steps) {
        expect(step).toBeGreaterThanOrEqual(69);
        expect(step).toBeLessThanOrEqual(277);
      }
    }
  });

  it('draws the same steps from the same seed', () => {
    expect(planKillSteps(20, 20_000, seededRandom(42))).toEqual(planKillSteps(20, 20_000, seededRandom(42)));
    expect(planKillSteps(20, 20_000, seededRandom(42))).not.toEqual(planKillSteps(20, 20_000, seededRandom(43)));
  });
});

describe('pairOrder', () => {
  it('kills first the service with fewer handoffs queued, so the other keeps working meanwhile', () => {
    expect(pairOrder({ router: 0, agent: 800 })).toEqual(['router', 'agent']);
    expect(pairOrder({ router: 900, agent: 3 })).toEqual(['agent', 'router']);
    expect(pairOrder({ router: 5, agent: 5 })).toEqual(['agent', 'router']);
  });
});

describe('cappedStep', () => {
  it('keeps the planned step while work remains, else an even share of it or the queue, never 0', () => {
    expect(cappedStep(200, 4_000, 3)).toBe(200);
    expect(cappedStep(200, 300, 2)).toBe(100);
    expect(cappedStep(200, 4_000, 3, 120)).toBe(120);
    expect(cappedStep(200, 1, 1)).toBe(1);
    expect(cappedStep(200, 4_000, 3, 0)).toBe(1);
  });
});

describe('seededRandom', () => {
  it('draws in [0, 1)', () => {
    const random = seededRandom(7);
    const draws = Array.from({ length: 1_000 }, random);

    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(new Set(draws).size).toBe(1_000);
  });
});
