import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitForHttpOptions {
  timeoutMs: number;
  /** Called after each failed attempt with the time spent so far. */
  onProgress?: (elapsedMs: number) => void;
  signal?: AbortSignal;
  /** Sent as the Authorization header's basic credentials. */
  basicAuth?: { username: string; password: string };
  /** PEM CA bundle an https `url`'s certificate chains to, beside Node's public ones. */
  ca?: string;
}

const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 1_000;
const ATTEMPT_TIMEOUT_MS = 2_000;
/** Refusals of the credentials: waiting does not change them, so the wait ends at once. */
const REFUSED = new Set([401, 403]);

/** The server answered 401 or 403: the credentials, not the server's readiness, are at fault. */
export class CredentialsRefusedError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`GET ${url} answered HTTP ${status}: the credentials are refused`);
    this.name = 'CredentialsRefusedError';
  }
}

/**
 * Resolves once `url` answers 200 to a GET; rejects with the last failure after `timeoutMs`, or at
 * once when the server refuses the credentials (401, 403).
 */
export async function waitForHttpOk(url: string, options: WaitForHttpOptions): Promise<void> {
  const startedAt = Date.now();
  const deadline = startedAt + options.timeoutMs;
  let backoffMs = FIRST_BACKOFF_MS;
  for (;;) {
    options.signal?.throwIfAborted();
    let failure = '';
    const status = await getStatus(url, options).catch((error: unknown) => {
      failure = error instanceof Error ? error.message : String(error);
      return undefined;
    });
    if (status === 200) return;
    if (status !== undefined) {
      if (REFUSED.has(status)) throw new CredentialsRefusedError(url, status);
      failure = `HTTP ${status}`;
    }
    const now = Date.now();
    if (now >= deadline)
      throw new Error(`GET ${url} did not answer 200 within ${options.timeoutMs} ms (last: ${failure})`);
    options.onProgress?.(now - startedAt);
    await sleep(
      Math.min(backoffMs, deadline - now),
      undefined,
      options.signal ? { signal: options.signal } : undefined,
    );
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  }
}

/** One GET's status, the body discarded. node:http(s) rather than fetch: fetch takes no CA of its own. */
function getStatus(url: string, options: WaitForHttpOptions): Promise<number> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = {};
  if (options.basicAuth) {
    const { username, password } = options.basicAuth;
    headers.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }
  return new Promise((resolve, reject) => {
    const request = client.get(
      target,
      { headers, timeout: ATTEMPT_TIMEOUT_MS, ...(options.ca !== undefined ? { ca: options.ca } : {}) },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${ATTEMPT_TIMEOUT_MS} ms`)));
    request.on('error', reject);
  });
}
