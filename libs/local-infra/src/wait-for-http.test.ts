import { createServer, type Server } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { waitForHttpOk } from './wait-for-http.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server that answers `failure` (503) to the first `failures` requests and 200 after. */
async function serveAfter(failures: number, failure = 503): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = createServer((request, response) => {
    requests += 1;
    const authorized = request.headers.authorization === `Basic ${Buffer.from('key:secret').toString('base64')}`;
    response.statusCode = requests > failures && (failure !== 401 || authorized) ? 200 : failure;
    response.end();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}/subjects`, requests: () => requests };
}

test('keeps asking until the answer is 200', async () => {
  const { url, requests } = await serveAfter(2);

  await waitForHttpOk(url, { timeoutMs: 10_000 });

  expect(requests()).toBe(3);
});

test('names the last answer when it gives up', async () => {
  const { url } = await serveAfter(Number.POSITIVE_INFINITY);

  await expect(waitForHttpOk(url, { timeoutMs: 300 })).rejects.toThrow(
    `GET ${url} did not answer 200 within 300 ms (last: HTTP 503)`,
  );
});

test('ends at once when the credentials are refused, and sends the basic auth it is given', async () => {
  const { url, requests } = await serveAfter(0, 401);

  await expect(
    waitForHttpOk(url, { timeoutMs: 10_000, basicAuth: { username: 'key', password: 'wrong' } }),
  ).rejects.toThrow(`GET ${url} answered HTTP 401: the credentials are refused`);
  expect(requests()).toBe(1);
  await waitForHttpOk(url, { timeoutMs: 10_000, basicAuth: { username: 'key', password: 'secret' } });
  expect(requests()).toBe(2);
});
