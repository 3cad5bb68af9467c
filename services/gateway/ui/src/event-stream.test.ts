import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamState } from './event-stream.js';

/** A response whose body is `text`, then ends, as a stream the gateway closes. */
function stream(text: string): Response {
  return new Response(new Blob([text]).stream(), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('followEvents', () => {
  beforeEach(() => {
    // The page's modules run in a browser: the page's address and its timers.
    vi.stubGlobal('window', {
      location: { href: 'http://gateway.test/ui/' },
      sessionStorage: { getItem: () => 'token-1' },
      setTimeout: (run: () => void) => setTimeout(run, 0),
      clearTimeout,
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('reconnects after the stream ends, resuming with the last event id, and stops when aborted', async () => {
    const controller = new AbortController();
    const requests: { url: string; headers: Record<string, string> }[] = [];
    const answers = [
      stream('retry: 1000\n\nid: 1.0\nevent: step\ndata: {"n":1}\n\nid: 2.0\nevent: step\ndata: {"n":2}\n\n'),
      stream(': ping\n\nid: 2.1\nevent: reply\ndata: {"n":3}\n\n'),
    ];
    vi.stubGlobal('fetch', async (url: URL, init: RequestInit) => {
      requests.push({ url: url.href, headers: init.headers as Record<string, string> });
      const answer = answers.shift();
      if (answer) return answer;
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    const { followEvents } = await import('./event-stream.js');
    const events: string[] = [];
    const states: StreamState[] = [];
    await followEvents(
      'v1/tasks/t-1/events',
      {
        onEvent: (event) => events.push(`${event.id} ${event.event} ${event.data}`),
        onState: (state) => states.push(state),
      },
      controller.signal,
    );

    expect(events).toEqual(['1.0 step {"n":1}', '2.0 step {"n":2}', '2.1 reply {"n":3}']);
    expect(states).toEqual(['open', 'reconnecting', 'open', 'reconnecting']);
    expect(
      requests.map((request) => [request.url, request.headers['last-event-id'], request.headers.authorization]),
    ).toEqual([
      ['http://gateway.test/v1/tasks/t-1/events', undefined, 'Bearer token-1'],
      ['http://gateway.test/v1/tasks/t-1/events', '2.0', 'Bearer token-1'],
      ['http://gateway.test/v1/tasks/t-1/events', '2.1', 'Bearer token-1'],
    ]);
  });

  it('gives up with the error when the gateway refuses the stream', async () => {
    vi.stubGlobal('fetch', async () => Response.json({ error: { code: 'FORBIDDEN', message: 'no' } }, { status: 403 }));
    const { followEvents } = await import('./event-stream.js');
    const states: [StreamState, string | undefined][] = [];
    await followEvents(
      'v1/tasks/t-1/events',
      { onEvent: () => undefined, onState: (state, error) => states.push([state, error?.code]) },
      new AbortController().signal,
    );
    expect(states).toEqual([['closed', 'FORBIDDEN']]);
  });
});
