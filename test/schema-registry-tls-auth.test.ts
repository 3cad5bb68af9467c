import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BatonError } from '@baton/errors';
import { provisionInfrastructure } from '@baton/local-infra';
import { createHandoffCodec, registryOptionsFromEnv, SchemaRegistryClient } from '@baton/wire';

const require = createRequire(import.meta.url);
const fixture = (name: string): Record<string, unknown> =>
  structuredClone(require(`@baton/schemas/fixtures/${name}.json`)) as Record<string, unknown>;

const USERNAME = 'BATONKEY123';
const SECRET = 'right-secret-4f9a';
const WRONG_SECRET = 'wrong-secret-77b1';
const EXPECTED = `Basic ${Buffer.from(`${USERNAME}:${SECRET}`).toString('base64')}`;

/**
 * An HTTPS endpoint with basic auth in front of the shared (plain HTTP, no auth) registry: a
 * TLS-terminating proxy whose certificate is made at test time, as Confluent Cloud would stand.
 */
describe('the schema registry over TLS with basic auth', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-registry-tls-'));
  const caFile = join(dir, 'cert.pem');
  const passwordFile = join(dir, 'password');
  const wrongPasswordFile = join(dir, 'wrong-password');
  let server: https.Server;
  let httpsUrl: string;
  /** Requests the proxy answered 401. */
  let refusals = 0;

  beforeAll(async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        caFile,
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-days',
        '1',
      ],
      { stdio: 'ignore' },
    );
    execFileSync('sh', [
      '-c',
      `printf '%s\\n' '${SECRET}' > '${passwordFile}'; printf '%s\\n' '${WRONG_SECRET}' > '${wrongPasswordFile}'`,
    ]);
    const upstream = new URL(inject('schemaRegistryUrl'));
    const upstreamBase = upstream.pathname.replace(/\/+$/, '');
    server = https.createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(caFile) },
      (request, response) => {
        if (request.headers.authorization !== EXPECTED) {
          refusals += 1;
          response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="registry"' });
          response.end(JSON.stringify({ error_code: 401, message: 'Unauthorized' }));
          return;
        }
        const headers = { ...request.headers, host: upstream.host };
        delete headers.authorization;
        const forward = http.request(
          {
            host: upstream.hostname,
            port: upstream.port,
            path: `${upstreamBase}${request.url ?? ''}`,
            method: request.method,
            headers,
          },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
          },
        );
        forward.on('error', () => {
          response.writeHead(502);
          response.end();
        });
        request.pipe(forward);
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    httpsUrl = `https://localhost:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function failure(promise: Promise<unknown>): Promise<BatonError> {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(BatonError);
      return error as BatonError;
    }
    throw new Error('expected the registry call to fail');
  }

  it('registers and fetches the handoff schema with the right key, secret (from a file) and CA', async () => {
    const options = registryOptionsFromEnv({
      SCHEMA_REGISTRY_URL: httpsUrl,
      SCHEMA_REGISTRY_USERNAME: USERNAME,
      SCHEMA_REGISTRY_PASSWORD_FILE: passwordFile,
      SCHEMA_REGISTRY_CA_FILE: caFile,
    });
    const writer = await createHandoffCodec(new SchemaRegistryClient(options));
    const message = fixture('seed-000-escalation-full');
    const bytes = writer.encode(message as never);
    // A fresh client fetches the writer schema by id through the proxy.
    const reader = await createHandoffCodec(new SchemaRegistryClient(options));
    expect(await reader.decode(bytes)).toStrictEqual(message);
    const freshOnly = new SchemaRegistryClient(options);
    expect(await freshOnly.avroType(writer.schemaId)).toBeDefined();
  });

  it('answers a wrong secret with REGISTRY_AUTH_FAILED, naming neither the secret nor the header', async () => {
    const options = registryOptionsFromEnv({
      SCHEMA_REGISTRY_URL: httpsUrl,
      SCHEMA_REGISTRY_USERNAME: USERNAME,
      SCHEMA_REGISTRY_PASSWORD_FILE: wrongPasswordFile,
      SCHEMA_REGISTRY_CA_FILE: caFile,
    });
    const client = new SchemaRegistryClient(options);
    const wrongHeader = Buffer.from(`${USERNAME}:${WRONG_SECRET}`).toString('base64');
    for (const error of [await failure(createHandoffCodec(client)), await failure(client.avroType(1))]) {
      expect(error.code).toBe('REGISTRY_AUTH_FAILED');
      expect(error.retriable).toBe(false);
      const shown = `${error.message} ${JSON.stringify(error)}`;
      for (const secret of [WRONG_SECRET, SECRET, wrongHeader, 'Basic ']) expect(shown).not.toContain(secret);
    }
  });

  it('fails the TLS handshake without the CA file as REGISTRY_UNAVAILABLE, not a crash', async () => {
    const client = new SchemaRegistryClient(
      registryOptionsFromEnv({
        SCHEMA_REGISTRY_URL: httpsUrl,
        SCHEMA_REGISTRY_USERNAME: USERNAME,
        SCHEMA_REGISTRY_PASSWORD: SECRET,
      }),
    );
    const error = await failure(createHandoffCodec(client));
    expect(error.code).toBe('REGISTRY_UNAVAILABLE');
    expect(error.message).not.toContain(SECRET);
    const fetchError = await failure(client.avroType(1));
    expect(['REGISTRY_UNAVAILABLE']).toContain(fetchError.code);
  });

  it('is what npm start checks a registry named by SCHEMA_REGISTRY_URL with: its credentials and CA, a refusal named at once', async () => {
    const env = {
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
      SCHEMA_REGISTRY_URL: httpsUrl,
      SCHEMA_REGISTRY_USERNAME: USERNAME,
      SCHEMA_REGISTRY_PASSWORD_FILE: passwordFile,
      SCHEMA_REGISTRY_CA_FILE: caFile,
    };
    const quiet = () => undefined;
    const provisioned = await provisionInfrastructure({ env, onProgress: quiet });
    expect([provisioned.source, provisioned.registrySource, provisioned.schemaRegistryUrl]).toEqual([
      'environment',
      'environment',
      httpsUrl,
    ]);
    await provisioned.stop();

    const refusedBefore = refusals;
    const error = await failure(
      provisionInfrastructure({ env: { ...env, SCHEMA_REGISTRY_PASSWORD_FILE: wrongPasswordFile }, onProgress: quiet }),
    );
    expect(error.code).toBe('REGISTRY_AUTH_FAILED');
    expect(error.message).toBe(
      `SCHEMA_REGISTRY_URL is ${httpsUrl}, which refused the credentials (HTTP 401): check SCHEMA_REGISTRY_USERNAME and SCHEMA_REGISTRY_PASSWORD or its _FILE`,
    );
    // Asked once, not again for the 15 s an unanswering registry gets: a refusal does not change by waiting.
    expect(refusals - refusedBefore).toBe(1);
    expect(JSON.stringify(error)).not.toContain(WRONG_SECRET);
  });
});
