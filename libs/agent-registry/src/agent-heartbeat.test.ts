import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseAgentRegistration, type AgentCard } from './agent-card.js';
import { AgentHeartbeat, type RegistryRecord, type RegistrySink } from './agent-heartbeat.js';

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
  heartbeat_interval_ms: 1_000,
};

const logger = { info: () => undefined, warn: () => undefined };

/** A sink that records what it is sent; `hold` makes sends wait until released. */
function fakeSink() {
  const sent: RegistryRecord[] = [];
  let gate: Promise<void> | undefined;
  let release = () => {};
  const sink: RegistrySink & { sent: RegistryRecord[]; hold(): void; release(): void; closed: boolean } = {
    sent,
    closed: false,
    async send(record) {
      if (gate) await gate;
      sent.push(record);
    },
    async close() {
      sink.closed = true;
    },
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release() {
      gate = undefined;
      release();
    },
  };
  return sink;
}

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-01-01T12:00:00.000Z') }));
afterEach(() => vi.useRealTimers());

describe('AgentHeartbeat', () => {
  it('registers at start, re-publishes every interval with a new heartbeat time, and tombstones at stop', async () => {
    const sink = fakeSink();
    const heartbeat = new AgentHeartbeat({ topic: 'baton.agents', card, sink, logger });
    await heartbeat.start();
    expect(sink.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(sink.sent.map((record) => record.key)).toEqual(Array(4).fill('sales_agent/sales-1'));
    expect(sink.sent.map((record) => parseAgentRegistration(record.value!).last_heartbeat_at)).toEqual([
      '2026-01-01T12:00:00.000Z',
      '2026-01-01T12:00:01.000Z',
      '2026-01-01T12:00:02.000Z',
      '2026-01-01T12:00:03.000Z',
    ]);
    await heartbeat.stop();
    expect(sink.sent.at(-1)).toEqual({ topic: 'baton.agents', key: 'sales_agent/sales-1', value: null });
    expect(sink.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sink.sent).toHaveLength(5);
  });

  it('does not pile up heartbeats behind a slow send, and tombstones after the one in flight', async () => {
    const sink = fakeSink();
    const heartbeat = new AgentHeartbeat({ topic: 'baton.agents', card, sink, logger });
    await heartbeat.start();
    sink.hold();
    await vi.advanceTimersByTimeAsync(5_000);
    const stopping = heartbeat.stop();
    sink.release();
    await stopping;
    expect(sink.sent.map((record) => (record.value === null ? 'tombstone' : 'beat'))).toEqual([
      'beat',
      'beat',
      'tombstone',
    ]);
  });

  it('keeps beating after a failed send', async () => {
    const sink = fakeSink();
    let failures = 1;
    const flaky: RegistrySink = {
      send: async (record) => {
        if (sink.sent.length === 1 && failures-- > 0) throw new Error('broker away');
        await sink.send(record);
      },
      close: () => sink.close(),
    };
    const warn = vi.fn();
    const heartbeat = new AgentHeartbeat({ topic: 'baton.agents', card, sink: flaky, logger: { ...logger, warn } });
    await heartbeat.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ event: 'registry.heartbeat_failed' }),
      'heartbeat failed',
    );
    expect(sink.sent).toHaveLength(2);
    await heartbeat.stop();
  });
});
