/** What a service answered to a request that fails: its status and body, for one assertion. */
export async function errorAnswer(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

/** The answer every Baton service gives to a path it has no route for. */
export function routeNotFound(method: string, path: string) {
  return { status: 404, body: { error: { code: 'ROUTE_NOT_FOUND', message: `no route ${method} ${path}` } } };
}
