import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority } from '@baton/local-infra';
import type { HttpServer } from '@baton/runtime';
import { buildGateway } from '../gateway.js';
import { loadGatewayConfig } from '../gateway-config.js';

const PASSPHRASE = 'test-passphrase-9c1e';

interface Answer {
  status: number;
  body: string;
}

/** A GET over HTTPS trusting `ca`; host names are checked. */
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
 * The real gateway, built from its configuration as main.ts builds it, with a certificate for
 * localhost and 127.0.0.1 issued at test time by a test CA; only its HTTP server is started (building connects to nothing, so no Kafka is needed).
 */
describe('the gateway over HTTPS', () => {
  let dir: string;
  let http: HttpServer;
  let ca: string;
  let address: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-gateway-https-'));
    const authority = await createCertificateAuthority(join(dir, 'ca'), 'baton-test-ca');
    const issued = await authority.issue('localhost', {
      altNames: ['DNS:localhost', 'IP:127.0.0.1'],
      keyPassword: PASSPHRASE,
    });
    ca = await readFile(authority.caPath, 'utf8');
    const passwordFile = join(dir, 'password');
    await writeFile(passwordFile, `${PASSPHRASE}\n`);
    const config = loadGatewayConfig({
      KAFKA_BROKERS: 'localhost:9092',
      SCHEMA_REGISTRY_URL: 'http://localhost:8081',
      HTTP_PORT: '0',
      HTTP_HOST: '127.0.0.1',
      BATON_API_KEYS: 'ops:0ps-key:viewer',
      BATON_HTTP_TLS_CERT_FILE: issued.certPath,
      // An encrypted key, so the passphrase is shown to reach the server.
      BATON_HTTP_TLS_KEY_FILE: issued.keyPath,
      BATON_HTTP_TLS_KEY_PASSWORD_FILE: passwordFile,
    });
    ({ http } = await buildGateway(config));
    await http.start();
    address = http.address();
  });

  afterAll(async () => {
    await http?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
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
    // The gateway presents its chain: the certificate, then the test CA's self-signed one.
    await expect(httpsGet(`${address}/healthz`, undefined)).rejects.toMatchObject({
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
  });

  it('does not answer plain HTTP', async () => {
    await expect(fetch(`${address.replace('https://', 'http://')}/healthz`)).rejects.toThrow();
  });
});
