import { describe, expect, it } from 'vitest';
import type { AgentStatus } from '@baton/gateway-api';
import { LagTrend } from './lag-trend.js';

const status = (agent_id: string, lag: number | null) => ({ agent_id, lag }) as AgentStatus;

describe('LagTrend', () => {
  it('calls a lag growing that never fell and rose by a tenth across 20 s of samples, and nothing before', () => {
    const trend = new LagTrend();
    const at = (seconds: number) => 1_000_000 + seconds * 1_000;
    trend.observe([status('refunds_agent', 120), status('sales_agent', 40), status('router', null)], at(0));
    trend.observe([status('refunds_agent', 300), status('sales_agent', 40)], at(10));
    // Two samples, 10 s apart: no trend yet.
    expect(trend.growing()).toEqual([]);
    trend.observe([status('refunds_agent', 480), status('sales_agent', 45)], at(25));
    // Sales rose by 5 offsets only: no more than a wobble.
    expect(trend.growing()).toEqual([{ agent_id: 'refunds_agent', from: 120, to: 480, seconds: 25 }]);
    // It fell once: the agent is catching up.
    trend.observe([status('refunds_agent', 200)], at(35));
    expect(trend.growing()).toEqual([]);
  });

  it('reads only the last minute', () => {
    const trend = new LagTrend();
    const at = (seconds: number) => 2_000_000 + seconds * 1_000;
    trend.observe([status('a', 500)], at(0));
    trend.observe([status('a', 100)], at(30));
    trend.observe([status('a', 200)], at(70));
    trend.observe([status('a', 300)], at(95));
    // Only the samples of 70 s and 95 s are within the minute: two, not a trend.
    expect(trend.growing()).toEqual([]);
    trend.observe([status('a', 400)], at(100));
    expect(trend.growing()).toEqual([{ agent_id: 'a', from: 200, to: 400, seconds: 30 }]);
  });
});
