import { expect } from 'vitest';
import type { ExactlyOnceChaosResult } from './chaos-run.js';

/**
 * What every chaos run must show once it is over: each of `handoffs` took effect exactly once and
 * in publish order per task on every output (the agent's COMPLETED events and ledger, the router's
 * ROUTED events and the agent's inbox), nothing dead-lettered or unexpected, no service crashed,
 * and each stopped cleanly.
 */
export function expectExactlyOnceInOrder(result: ExactlyOnceChaosResult, handoffs: number): void {
  expect(result.problems).toEqual([]);
  expect(result.published).toBe(handoffs);
  const exactlyOnceInOrder = {
    published: handoffs,
    tookEffect: handoffs,
    lost: 0,
    duplicated: 0,
    outOfOrder: 0,
    unexpected: 0,
  };
  expect(result.audits.completed).toMatchObject(exactlyOnceInOrder);
  expect(result.audits.ledger).toMatchObject(exactlyOnceInOrder);
  expect(result.audits.routed).toMatchObject(exactlyOnceInOrder);
  expect(result.audits.inbox).toMatchObject(exactlyOnceInOrder);
  expect(result.deadLetters).toBe(0);
  expect(result.seqMismatches).toBe(0);
  expect(result.otherEvents).toEqual({});
  expect(result.services.router.unexpectedExits + result.services.agent.unexpectedExits).toBe(0);
  expect(result.exitCodes).toEqual({ router: 0, agent: 0 });
  expect(result.ok).toBe(true);
}
