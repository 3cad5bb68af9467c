import { describe, expect, it } from 'vitest';
import { EXIT } from './errors.js';
import { GatewayClient } from './gateway-client.js';

interface Call {
  url: string;
  init: RequestInit;
}

function fakeFetch(status: number, body: unknown, calls: Call[] = []): typeof fetch {
  return (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
}

describe('GatewayClient', () => {
  it('sends the token as a bearer credential and JSON bodies, and returns the JSON answer', async () => {
    const calls: Call[] = [];
    const client = new GatewayClient({
      baseUrl: 'http://gw:8080/',
      token: 's3cret',
      fetch: fakeFetch(202, { message_id: 'm' }, calls),
    });
    expect(await client.post('/v1/handoffs', { a: 1 })).toEqual({ message_id: 'm' });
    expect(calls[0]?.url).toBe('http://gw:8080/v1/handoffs');
    expect(calls[0]?.init).toMatchObject({
      method: 'POST',
      headers: { authorization: 'Bearer s3cret', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
  });

  it('turns error answers into coded errors with 4xx/5xx exit codes, never naming the token', async () => {
    const refused = new GatewayClient({
      baseUrl: 'http://gw',
      token: 'not-known-token',
      fetch: fakeFetch(401, { error: { code: 'UNAUTHENTICATED', message: 'the credential is not known' } }),
    });
    const error = await refused.get('/v1/dlq').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'UNAUTHENTICATED', exitCode: EXIT.REFUSED });
    expect(JSON.stringify({ message: (error as Error).message })).not.toContain('not-known-token');

    const anonymous = new GatewayClient({
      baseUrl: 'http://gw',
      fetch: fakeFetch(401, { error: { code: 'UNAUTHENTICATED', message: 'send a credential' } }),
    });
    await expect(anonymous.get('/v1/dlq')).rejects.toThrow(/BATON_TOKEN/);

    const down = new GatewayClient({
      baseUrl: 'http://gw',
      fetch: fakeFetch(503, { error: { code: 'KAFKA_UNAVAILABLE', message: 'no broker' } }),
    });
    await expect(down.get('/v1/agents')).rejects.toMatchObject({
      code: 'KAFKA_UNAVAILABLE',
      exitCode: EXIT.UNAVAILABLE,
    });
  });

  it('reports an unreachable gateway as GATEWAY_UNAVAILABLE (exit 3)', async () => {
    const refusing = (async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
      });
    }) as unknown as typeof fetch;
    const client = new GatewayClient({ baseUrl: 'http://127.0.0.1:9', token: 't', fetch: refusing });
    await expect(client.get('/v1/agents')).rejects.toMatchObject({
      code: 'GATEWAY_UNAVAILABLE',
      exitCode: EXIT.UNAVAILABLE,
      message: 'cannot reach the gateway at http://127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9',
    });
  });
});
