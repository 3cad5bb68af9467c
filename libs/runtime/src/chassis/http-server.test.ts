import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatonError, ERROR_CATALOGUE, ERROR_CODES } from '@baton/errors';
import { createCertificateAuthority } from '@baton/local-infra';
import { capturedLogger } from '../captured-logger.test-helper.js';
import { createServiceMetrics } from '../metrics.js';
import { HttpServer, type HttpTls } from './http-server.js';

function server(ready = true, tls?: HttpTls, closeGraceMs?: number) {
  const { logger, lines } = capturedLogger('http-test');
  const http = new HttpServer({
    port: 0,
    host: '127.0.0.1',
    isReady: () => ready,
    metrics: createServiceMetrics({ service: 'http-test' }),
    logger,
    tls,
    ...(closeGraceMs === undefined ? {} : { closeGraceMs }),
  });
  return { http, app: http.app, lines };
}

describe('the chassis HTTP server', () => {
  it('answers health, readiness and metrics', async () => {
    const { app } = server(false);
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const readiness = await app.inject({ url: '/readyz' });
    expect([readiness.statusCode, readiness.json()]).toEqual([503, { status: 'not ready' }]);
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body).toContain('process_cpu_user_seconds_total');
  });

  it.each(ERROR_CODES)('answers a thrown %s with its catalogue status, in the one error shape', async (code) => {
    const { app } = server();
    app.get('/fail', async () => {
      throw new BatonError(code, 'it failed', { path: '/field' });
    });
    const answer = await app.inject({ url: '/fail' });
    expect(answer.statusCode).toBe(ERROR_CATALOGUE[code].httpStatus);
    expect(answer.json()).toEqual({ error: { code, message: 'it failed', path: '/field' } });
    expect(answer.headers['retry-after']).toBe(ERROR_CATALOGUE[code].httpStatus === 503 ? '5' : undefined);
  });

  it('answers a schema failure as REQUEST_INVALID with every issue', async () => {
    const { app } = server();
    app.post(
      '/things',
      { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
      async () => ({}),
    );
    const answer = await app.inject({ method: 'POST', url: '/things', payload: {} });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toMatchObject({ code: 'REQUEST_INVALID', path: '/body/name' });
    expect(answer.json().error.issues).toHaveLength(1);
  });

  it('refuses a JSON body that is not UTF-8, and still parses one that is', async () => {
    const { app } = server();
    app.post('/echo', async (request) => request.body);
    const post = (payload: Buffer) =>
      app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });
    const notUtf8 = await post(Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]));
    expect([notUtf8.statusCode, notUtf8.json()]).toEqual([
      400,
      { error: { code: 'REQUEST_INVALID', message: 'the request body is not UTF-8', path: '' } },
    ]);
    const utf8 = await post(Buffer.from('{"name":"Zoë €"}'));
    expect([utf8.statusCode, utf8.json()]).toEqual([200, { name: 'Zoë €' }]);
    const poisoned = await post(Buffer.from('{"__proto__":{"admin":true}}'));
    expect([poisoned.statusCode, poisoned.json().error.code]).toEqual([400, 'REQUEST_INVALID']);
  });

  it('answers a body that is not JSON as REQUEST_INVALID', async () => {
    const { app } = server();
    app.post('/things', async () => ({}));
    const answer = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.code).toBe('REQUEST_INVALID');
  });

  it('answers an unknown route as ROUTE_NOT_FOUND', async () => {
    const { app } = server();
    const answer = await app.inject({ method: 'DELETE', url: '/nowhere' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ error: { code: 'ROUTE_NOT_FOUND', message: 'no route DELETE /nowhere' } });
  });

  it('logs an unexpected error and answers 500 INTERNAL without its internals', async () => {
    const { app, lines } = server();
    app.get('/bug', async () => {
      throw new TypeError('secret internals');
    });
    const answer = await app.inject({ url: '/bug' });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ error: { code: 'INTERNAL', message: 'unexpected error; see the service log' } });
    expect(answer.body).not.toContain('secret');
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'http.unexpected_error', url: '/bug' }),
    );
  });

  it('listens on start and tells its address, and stops listening on close', async () => {
    const { http } = server();
    await http.start();
    const address = http.address();
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    await http.close();
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
  });

  it('lets a request in progress finish within the grace when it closes', async () => {
    const { http, app, lines } = server(true, undefined, 2_000);
    app.get('/slow', async () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 200)));
    await http.start();
    const answer = fetch(`${http.address()}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await http.close();
    expect(await (await answer).json()).toEqual({ done: true });
    expect(lines.filter((line) => line.event === 'http.close_forced')).toEqual([]);
  });

  it('closes the connections still open past the grace, and says so', async () => {
    const { http, app, lines } = server(true, undefined, 300);
    let received: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    // Answers nothing, as a client that never hangs up keeps its connection.
    app.get('/never', async (_request, reply) => {
      reply.hijack();
      received();
    });
    await http.start();
    const hungUp = new Promise<string>((resolve) =>
      get(`${http.address()}/never`).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? '')),
    );
    await arrived;
    await http.close();
    expect(await hungUp).toBe('ECONNRESET');
    expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', event: 'http.close_forced', grace_ms: 300 }));
  });

  it('serves HTTPS given a certificate and key, and tells an https:// address', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-chassis-tls-'));
    try {
      const ca = await createCertificateAuthority(dir, 'baton-test-ca');
      const issued = await ca.issue('localhost', { altNames: ['DNS:localhost', 'IP:127.0.0.1'] });
      const trusted = await readFile(ca.caPath, 'utf8');
      const cert = await readFile(issued.certPath, 'utf8');
      const { http } = server(true, { cert, key: await readFile(issued.keyPath, 'utf8') });
      await http.start();
      try {
        const address = http.address();
        expect(address).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        const status = await new Promise<number | undefined>((resolve, reject) =>
          request(`${address}/healthz`, { ca: trusted, agent: false }, (response) => {
            response.resume();
            resolve(response.statusCode);
          })
            .on('error', reject)
            .end(),
        );
        expect(status).toBe(200);
        await expect(fetch(`${address.replace('https:', 'http:')}/healthz`)).rejects.toThrow();
      } finally {
        await http.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
