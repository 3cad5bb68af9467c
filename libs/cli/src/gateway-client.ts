import { queryString, type QueryValue } from '@baton/gateway-api';
import { CliError, EXIT, apiError } from './errors.js';

export interface GatewayClientOptions {
  baseUrl: string;
  /** Sent as a bearer token; never part of any message. */
  token?: string;
  /** @default 30_000 */
  timeoutMs?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** A path segment: topic names and ids are user input. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/**
 * The gateway's HTTP API as JSON in, JSON out. An error answer becomes a CliError with the
 * gateway's code (exit 2 for 4xx, 3 for 5xx); an unreachable gateway is GATEWAY_UNAVAILABLE (3).
 */
export class GatewayClient {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: GatewayClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  get<T = any>(path: string, query: Record<string, QueryValue> = {}): Promise<T> {
    return this.request<T>('GET', `${path}${queryString(query)}`);
  }

  post<T = any>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  /**
   * The text/event-stream at `path`, chunk by chunk, until the gateway ends it or `signal` aborts;
   * `lastEventId` resumes it where an earlier stream stopped. No timeout: a stream lasts.
   */
  async *stream(path: string, options: { lastEventId?: string; signal: AbortSignal }): AsyncGenerator<string> {
    const url = `${this.baseUrl}${path}`;
    let response: Response;
    try {
      response = await this.fetch(url, {
        headers: {
          accept: 'text/event-stream',
          ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
          ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }),
        },
        signal: options.signal,
      });
    } catch (error) {
      throw this.unreachable(error);
    }
    if (!response.ok) throw this.answerError(response.status, parsedBody(await response.text().catch(() => '')));
    if (response.body === null) return;
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      yield decoder.decode(chunk, { stream: true });
    }
  }

  private unreachable(error: unknown): CliError {
    return new CliError('GATEWAY_UNAVAILABLE', `cannot reach the gateway at ${this.baseUrl}: ${reasonOf(error)}`, {
      exitCode: EXIT.UNAVAILABLE,
      cause: error,
    });
  }

  private answerError(status: number, parsed: unknown): CliError {
    const error = apiError(status, parsed);
    if (error.code === 'UNAUTHENTICATED' && !this.options.token) {
      return new CliError(error.code, `${error.message} (give --token or set BATON_TOKEN)`, {
        exitCode: error.exitCode,
      });
    }
    return error;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${this.baseUrl}${path}`;
    let response: Response;
    try {
      response = await this.fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw this.unreachable(error);
    }
    const text = await response.text().catch(() => '');
    const parsed = parsedBody(text);
    if (!response.ok) throw this.answerError(response.status, parsed);
    if (typeof parsed === 'string') {
      throw new CliError('GATEWAY_ANSWER_INVALID', `${method} ${path} answered ${response.status} with no JSON`, {
        exitCode: EXIT.UNAVAILABLE,
      });
    }
    return parsed as T;
  }
}

/** An answer's body as JSON, or as the text it is when it is not JSON (kept for the error message). */
function parsedBody(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}

/** Why a fetch failed, from the system error underneath (ECONNREFUSED, a timeout, ...). */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if ((error as Error | undefined)?.name === 'TimeoutError') return 'no answer in time';
  if (cause?.message || cause?.code) return cause.message || String(cause.code);
  return error instanceof Error ? error.message : String(error);
}
