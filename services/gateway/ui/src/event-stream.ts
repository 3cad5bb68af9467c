import { SseParser, type SseEvent } from '@baton/gateway-api';
import { ApiError, apiUrl, authHeaders, readAnswer } from './api.js';

/** How long to wait before reconnecting: what the gateway's stream asks for (`retry: 1000`). */
const RECONNECT_MS = 1000;

export type StreamState = 'open' | 'reconnecting' | 'closed';

export interface StreamHandlers {
  onEvent(event: SseEvent): void;
  /** `closed` with the error when the gateway refused the stream (4xx): trying again would not help. */
  onState(state: StreamState, error?: ApiError): void;
}

/**
 * Follows a Server-Sent Events route with fetch (EventSource cannot send the bearer header) until
 * `signal` aborts: reconnects after RECONNECT_MS with the last event id seen as Last-Event-ID, so
 * the gateway sends exactly what followed.
 */
export async function followEvents(path: string, handlers: StreamHandlers, signal: AbortSignal): Promise<void> {
  let lastEventId: string | undefined;
  while (!signal.aborted) {
    try {
      const response = await fetch(apiUrl(path), {
        headers: {
          ...authHeaders('text/event-stream'),
          ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
        },
        cache: 'no-store',
        credentials: 'omit',
        signal,
      });
      if (!response.ok || response.body === null) await readAnswer(response);
      handlers.onState('open');
      const parser = new SseParser();
      const decoder = new TextDecoder();
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          if (event.id !== undefined) lastEventId = event.id;
          handlers.onEvent(event);
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        handlers.onState('closed', error);
        return;
      }
    }
    if (signal.aborted) return;
    handlers.onState('reconnecting');
    await new Promise((resolve) => {
      const timer = window.setTimeout(resolve, RECONNECT_MS);
      signal.addEventListener('abort', () => (window.clearTimeout(timer), resolve(undefined)), { once: true });
    });
  }
}
