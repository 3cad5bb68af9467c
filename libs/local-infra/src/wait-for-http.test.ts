import { createServer, type Server } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { waitForHttpOk } from './wait-for-http.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server that answers 503 to the first `failures` requests and 200 after. */
async function serveAfter(failures: number): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = createServer((_, response) => {
    requests += 1;
    response.statusCode = requests > failures ? 200 : 503;
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
