import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpServer } from '@baton/runtime';
import { buildGateway } from '../gateway.js';
import { loadGatewayConfig } from '../gateway-config.js';
import { makeTestCertificate, type TestCertificate } from './test-certificate.test-helper.js';

interface Answer {
  status: number;
  body: string;
}

/** A GET over HTTPS trusting `ca` (the test certificate is its own CA); host names are checked. */
function httpsGet(url: string, ca: string | undefined, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = request(url, { ca, headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on('error', reject);
    call.end();
  });
}

/**
 * The real gateway, built from its configuration as main.ts builds it, with a certificate made at
 * test time; only its HTTP server is started (building connects to nothing, so no Kafka is needed).
 */
describe('the gateway over HTTPS', () => {
  let files: TestCertificate;
  let http: HttpServer;
  let ca: string;
  let address: string;

  beforeAll(async () => {
    files = await makeTestCertificate();
    ca = readFileSync(files.certFile, 'utf8');
    const config = loadGatewayConfig({
      KAFKA_BROKERS: 'localhost:9092',
      SCHEMA_REGISTRY_URL: 'http://localhost:8081',
      HTTP_PORT: '0',
      HTTP_HOST: '127.0.0.1',
      BATON_API_KEYS: 'ops:0ps-key:viewer',
      BATON_HTTP_TLS_CERT_FILE: files.certFile,
      // The encrypted key, so the passphrase is shown to reach the server.
      BATON_HTTP_TLS_KEY_FILE: files.encryptedKeyFile,
      BATON_HTTP_TLS_KEY_PASSWORD_FILE: files.passwordFile,
    });
    ({ http } = await buildGateway(config));
    await http.start();
    address = http.address();
  });

  afterAll(async () => {
    await http?.close();
    await files?.remove();
  });

  it('tells an https:// address', () => {
    expect(address).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers over HTTPS with the certificate trusted, by IP address and by host name', async () => {
    expect(await httpsGet(`${address}/healthz`, ca)).toEqual({ status: 200, body: '{"status":"ok"}' });
    const { port } = new URL(address);
    const openApi = await httpsGet(`https://localhost:${port}/openapi.json`, ca);
    expect(openApi.status).toBe(200);
    expect(JSON.parse(openApi.body)).toHaveProperty('openapi');
  });

  it('serves the API with its access control', async () => {
    expect((await httpsGet(`${address}/v1/tasks/task-none`, ca)).status).toBe(401);
    const answer = await httpsGet(`${address}/v1/tasks/task-none`, ca, { 'x-api-key': '0ps-key' });
    expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([404, 'TASK_NOT_FOUND']);
  });

  it('refuses a client that does not trust the certificate', async () => {
    await expect(httpsGet(`${address}/healthz`, undefined)).rejects.toMatchObject({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
  });

  it('does not answer plain HTTP', async () => {
    await expect(fetch(`${address.replace('https://', 'http://')}/healthz`)).rejects.toThrow();
  });
});
