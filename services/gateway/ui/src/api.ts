/**
 * The console's client of the gateway's API: the token the user pasted, sent as a bearer header,
 * and the API's `{error: {code, message}}` answers turned into ApiErrors.
 */

const TOKEN_KEY = 'baton.gateway.token';
/** The page is served at `<base>/ui/`; the API lives at `<base>/v1/`. */
const API_BASE = new URL('../', window.location.href);

export interface ApiIssue {
  code?: string;
  path?: string;
  message?: string;
}

/** An answer other than 2xx, or no answer. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
    readonly issues: ApiIssue[] = [],
  ) {
    super(message);
  }
}

/** Kept in sessionStorage, so it lasts as long as the tab and no longer. */
let token = readToken();

function readToken(): string {
  try {
    return window.sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

export function currentToken(): string {
  return token;
}

export function setToken(value: string): void {
  try {
    if (value) window.sessionStorage.setItem(TOKEN_KEY, value);
    else window.sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage refused (a locked-down browser): the token lives as long as this page.
  }
  token = value;
}

/** The URL of an API path (relative, `v1/...`), always on the gateway's own origin. */
export function apiUrl(path: string): URL {
  return new URL(path, API_BASE);
}

export function authHeaders(accept: string): Record<string, string> {
  return { accept, ...(token ? { authorization: `Bearer ${token}` } : {}) };
}

/** Encodes one path segment. */
export const segment = (value: string): string => encodeURIComponent(value);

/** Calls the API; resolves with the parsed answer, rejects with an ApiError. */
export async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers = authHeaders('application/json');
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch (error) {
    throw new ApiError(0, 'NETWORK_ERROR', `The gateway did not answer: ${(error as Error).message}`);
  }
  return readAnswer<T>(response);
}

export async function readAnswer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: unknown; message?: unknown; path?: string; issues?: ApiIssue[] } })
      ?.error;
    if (error && typeof error.code === 'string') {
      throw new ApiError(response.status, error.code, String(error.message ?? ''), error.path, error.issues ?? []);
    }
    throw new ApiError(response.status, `HTTP_${response.status}`, text.slice(0, 300) || response.statusText);
  }
  if (parsed === undefined) throw new ApiError(response.status, 'BAD_ANSWER', 'The answer is not JSON');
  return parsed as T;
}
