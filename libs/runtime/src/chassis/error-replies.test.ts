import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogger } from '../captured-logger.test-helper.js';
import { LINGER_MAX_BYTES, installErrorReplies } from './error-replies.js';

const BODY_LIMIT = 1024;

describe('installErrorReplies', () => {
  const app = Fastify({ bodyLimit: BODY_LIMIT });
  let address = '';

  beforeAll(async () => {
    installErrorReplies(app, capturedLogger().logger);
    app.post('/echo', async (request) => request.body);
    address = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => app.close());

  it('answers a body over the limit with 400 REQUEST_INVALID and reads it to its end, keeping the connection', async () => {
    // Closed on the refusal, the connection broke a client still sending the body (EPIPE) before
    // it read the answer, or not, by how much of it the sockets had buffered.
    const body = Buffer.alloc(8 * 1024 * 1024, 0x20);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await fetch(`${address}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('connection')).not.toBe('close');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('REQUEST_INVALID');
    }
  });

  it('still cuts off a body declared larger than it reads to its end', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json', 'content-length': String(LINGER_MAX_BYTES + 1) },
      payload: '{}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers.connection).toBe('close');
  });
});
