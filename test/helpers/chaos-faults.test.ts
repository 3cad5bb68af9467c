import { expect, it } from 'vitest';
import { CHAOS_FAULTS, parseChaosFaults, scalingFaults } from './chaos-faults.js';

it('parseChaosFaults takes every fault when unset, the named ones otherwise, and refuses an unknown name', () => {
  expect(parseChaosFaults(undefined)).toEqual([...CHAOS_FAULTS]);
  expect(parseChaosFaults(' ')).toEqual([...CHAOS_FAULTS]);
  expect(parseChaosFaults('leader, scale-in-kill')).toEqual(['leader', 'scale-in-kill']);
  expect(() => parseChaosFaults('leader,scale-up')).toThrow(
    `CHAOS_FAULTS names no fault scale-up: choose from ${CHAOS_FAULTS.join(', ')}`,
  );
});

it('scalingFaults adds an agent instance, kills a gateway, then takes an agent instance away with SIGTERM and one with SIGKILL, by progress', () => {
  expect(scalingFaults(1_000).map(({ name, atProgress }) => [name, atProgress])).toEqual([
    ['scale the agent out: one more instance', 180],
    ['SIGKILL a gateway instance, started again at once', 330],
    ['scale the agent in: an instance stopped with SIGTERM', 480],
    ['scale the agent in: an instance SIGKILLed and not started again', 620],
  ]);
  expect(scalingFaults(1_000, ['leader', 'scale-in-kill']).map((fault) => fault.atProgress)).toEqual([620]);
});
