import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GATEWAY_TOKENS,
  startGatewayRig,
  uniqueName,
  waitFor,
  type GatewayRig,
  expectCleanExits,
} from './helpers/index.js';

interface StreamEvent {
  id: string;
  event: string;
  data: { kind: string; message_id: string; outcome?: string; agent_id: string; message?: string };
}

/**
 * A client of GET /v1/tasks/{task_id}/events: reads events as they come until it is stopped,
 * and reconnects as EventSource does, with the last id it saw.
 */
function follow(gateway: string, taskId: string, lastEventId?: string) {
  const events: StreamEvent[] = [];
  const aborter = new AbortController();
  let opened: () => void = () => undefined;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const done = (async () => {
    const response = await fetch(`${gateway}/v1/tasks/${encodeURIComponent(taskId)}/events`, {
      headers: {
        authorization: `Bearer ${GATEWAY_TOKENS.viewer}`,
        accept: 'text/event-stream',
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
      signal: aborter.signal,
    });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    opened();
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const fields = Object.fromEntries(
          block
            .split('\n')
            .filter((line) => !line.startsWith(':') && line.includes(': '))
            .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
        );
        if (fields.id !== undefined) {
          events.push({ id: fields.id, event: fields.event ?? '', data: JSON.parse(fields.data ?? '{}') });
        }
      }
    }
  })().catch((error: unknown) => {
    if (!aborter.signal.aborted) throw error;
  });
  return { events, open, stop: () => aborter.abort(), done };
}

describe('GET /v1/tasks/{task_id}/events', () => {
  let gateway: GatewayRig;

  beforeAll(async () => {
    gateway = await startGatewayRig('task-stream');
  });

  afterAll(async () => {
    const codes = await gateway?.stop();
    expectCleanExits(codes);
  });

  const publish = async (taskId: string, seq: number, reply?: string) => {
    const answer = await gateway.api('POST', '/v1/handoffs', {
      token: GATEWAY_TOKENS.publisher,
      body: gateway.probeHandoff(taskId, { seq, ...(reply === undefined ? {} : { reply }) }),
    });
    expect(answer.status).toBe(202);
  };

  it('streams each step and reply of a running task once, in order, and resumes after a disconnect', async () => {
    const taskId = uniqueName('live');
    // Opened before the task has a first event: it is followed from its first.
    const first = follow(gateway.gateway.address, taskId);
    await publish(taskId, 1, 'Step one done.');
    await waitFor(() => first.events.length >= 3, { description: 'the first handoff routed, completed and replied' });
    first.stop();
    await first.done;
    const lastSeen = first.events.at(-1)?.id;

    // While the client is away, the task goes on.
    await publish(taskId, 2);
    await publish(taskId, 3, 'All done.');
    await waitFor(
      async () =>
        (await gateway.api('GET', `/v1/tasks/${taskId}`, { token: GATEWAY_TOKENS.viewer })).body?.events?.length === 6,
      {
        description: 'the three handoffs in the timeline',
      },
    );

    const second = follow(gateway.gateway.address, taskId, lastSeen);
    await waitFor(() => second.events.at(-1)?.id === '6.2', {
      description: 'the rest of the task after the last event id',
    });
    second.stop();
    await second.done;

    const all = [...first.events, ...second.events];
    const timeline = (await gateway.api('GET', `/v1/tasks/${taskId}`, { token: GATEWAY_TOKENS.viewer })).body;
    // Every step of the timeline once, in its order; every reply once, in its order. How the two
    // interleave depends on which reader read first, and each id says how far each had gone.
    expect(all.filter((event) => event.event === 'step').map((event) => event.data.message_id)).toEqual(
      timeline.events.map((step: { message_id: string }) => step.message_id),
    );
    expect(
      all
        .filter((event) => event.event === 'step')
        .map((event) => event.data.outcome)
        .sort(),
    ).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'ROUTED', 'ROUTED', 'ROUTED']);
    expect(all.filter((event) => event.event === 'reply').map((event) => event.data.message)).toEqual([
      'Step one done.',
      'All done.',
    ]);
    expect(all).toHaveLength(8);
    expect(new Set(all.map((event) => event.id)).size).toBe(8);
  });

  it('needs a credential', async () => {
    const response = await fetch(`${gateway.gateway.address}/v1/tasks/anything/events`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
  });

  it('ends the streams still open when the gateway stops, which then exits 0', async () => {
    const left = follow(gateway.gateway.address, uniqueName('left-open'));
    await left.open;
    const code = await gateway.gateway.stop('SIGTERM');
    // A stuck close ends in service.close_timeout, naming the component it waited for.
    const stopLines = gateway.gateway.logs.filter((entry) => String(entry.event).startsWith('service.'));
    expect(code, JSON.stringify(stopLines)).toBe(0);
    await left.done;
  });
});
