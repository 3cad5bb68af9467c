import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BatonError } from '@baton/errors';
import { createCertificateAuthority, startRegistryFront, type RegistryFront } from '@baton/local-infra';
import { SchemaRegistryClient, type AvroRecordSchema } from '@baton/wire';
import { uniqueName } from './helpers/unique-name.js';

const WRITER = { username: 'schema-writer', password: 'writer-secret-9c1d', mayWrite: true };
const READER = { username: 'router', password: 'reader-secret-5e2a', mayWrite: false };

/** A record schema of its own per call: a subject no other test has touched. */
function freshSchema(): AvroRecordSchema {
  const name = uniqueName('FrontProbe').replace(/[^A-Za-z0-9_]/g, '_');
  return {
    type: 'record',
    name,
    namespace: 'baton.test',
    fields: [{ name: 'id', type: 'string' }],
  } as AvroRecordSchema;
}

/**
 * The registry front `npm start -- --secure` puts before the local registry, in front of the shared
 * (plain, unauthenticated) registry: TLS with a certificate of a CA made here, basic auth per
 * principal, writes for the writer only.
 */
describe('the schema registry front', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-registry-front-'));
  let front: RegistryFront;
  let ca: string;

  beforeAll(async () => {
    const authority = await createCertificateAuthority(dir);
    ca = readFileSync(authority.caPath, 'utf8');
    front = await startRegistryFront({
      upstreamUrl: inject('schemaRegistryUrl'),
      tls: await authority.issue('schema-registry', { altNames: ['IP:127.0.0.1'] }),
      principals: [WRITER, READER],
    });
  });

  afterAll(async () => {
    await front?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const client = (principal?: { username: string; password: string }): SchemaRegistryClient =>
    new SchemaRegistryClient({ url: front.url, ca, ...(principal ? { basicAuth: principal } : {}) });

  /** One raw request through the front: its status and body. */
  function call(
    method: string,
    path: string,
    options: { principal?: { username: string; password: string }; body?: unknown } = {},
  ): Promise<{ status: number; body: string }> {
    const headers: Record<string, string> = { 'content-type': 'application/vnd.schemaregistry.v1+json' };
    if (options.principal) {
      const { username, password } = options.principal;
      headers.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    }
    return new Promise((resolve, reject) => {
      const outgoing = request(new URL(`${front.url}${path}`), { method, headers, ca }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      outgoing.on('error', reject);
      outgoing.end(options.body === undefined ? undefined : JSON.stringify(options.body));
    });
  }

  async function failure(promise: Promise<unknown>): Promise<BatonError> {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(BatonError);
      return error as BatonError;
    }
    throw new Error('expected the registry call to fail');
  }

  it('answers an anonymous read, an anonymous write and a wrong password with 401', async () => {
    const schema = JSON.stringify(freshSchema());
    const wrong = { username: READER.username, password: 'not-the-password' };
    expect(await call('GET', '/subjects')).toMatchObject({ status: 401 });
    expect(await call('POST', '/subjects/anonymous-write/versions', { body: { schema } })).toMatchObject({
      status: 401,
    });
    const refused = await call('GET', '/subjects', { principal: wrong });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toEqual({
      error_code: 40101,
      message: 'the schema registry needs a username and password it knows (basic auth)',
    });
    const error = await failure(client(wrong).avroType(1));
    expect([error.code, error.details]).toEqual(['REGISTRY_AUTH_FAILED', { status: 401 }]);
  });

  it("refuses a reader's registration and compatibility change with 403, before they reach the registry", async () => {
    const schema = freshSchema();
    const subject = `baton.test.${schema.name}`;
    const error = await failure(client(READER).register(schema, subject));
    expect([error.code, error.details, error.message]).toEqual([
      'REGISTRY_AUTH_FAILED',
      { status: 403 },
      `setting compatibility of ${subject}: the schema registry does not let these credentials do it (HTTP 403); a schema must be registered by a credential that may write before a service that only reads starts`,
    ]);
    const write = await call('POST', `/subjects/${subject}/versions`, {
      principal: READER,
      body: { schema: JSON.stringify(schema) },
    });
    expect(write.status).toBe(403);
    expect(JSON.parse(write.body)).toEqual({
      error_code: 40301,
      message: `router may read the schema registry, not change it (POST /apis/ccompat/v7/subjects/${subject}/versions)`,
    });
    for (const [method, path] of [
      ['PUT', '/config'],
      ['PUT', `/config/${subject}`],
    ] as const) {
      const changed = await call(method, path, { principal: READER, body: { compatibility: 'NONE' } });
      expect(changed.status, `${method} ${path}`).toBe(403);
    }
    expect(await call('DELETE', `/subjects/${subject}`, { principal: READER })).toMatchObject({ status: 403 });
    // Nothing reached the registry: the subject does not exist.
    expect(await call('GET', `/subjects/${subject}/versions`, { principal: WRITER })).toMatchObject({ status: 404 });
  });

  it("accepts the writer's registration; a reader then gets the same id by lookup and reads the schema by id", async () => {
    const schema = freshSchema();
    const subject = `baton.test.${schema.name}`;
    const id = await client(WRITER).register(schema, subject);
    expect(await client(READER).register(schema, subject)).toBe(id);
    expect(await client(READER).lookUp(schema, subject)).toBe(id);
    expect((await client(READER).avroType(id)).name).toBe(`baton.test.${schema.name}`);
    expect(JSON.parse((await call('GET', `/subjects/${subject}/versions`, { principal: READER })).body)).toEqual([1]);
    expect(JSON.parse((await call('GET', `/config/${subject}`, { principal: READER })).body)).toEqual({
      compatibilityLevel: 'BACKWARD',
    });
  });

  it("serves only the registry's Confluent API: Apicurio's own API, which skips the checks, is not reachable", async () => {
    const authorization = `Basic ${Buffer.from(`${WRITER.username}:${WRITER.password}`).toString('base64')}`;
    const { port } = new URL(front.url);
    for (const path of [
      '/apis/registry/v2/admin/rules',
      '/apis/ccompat/v7/../../registry/v2/admin/rules',
      '/apis/ccompat/v7/%2e%2e/%2E%2E/registry/v2/admin/rules',
    ]) {
      const status = await new Promise<number>((resolve, reject) => {
        const outgoing = request(
          { host: '127.0.0.1', port, path, method: 'DELETE', headers: { authorization }, ca },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        outgoing.on('error', reject);
        outgoing.end();
      });
      expect(status, path).toBe(404);
    }
    expect(JSON.parse((await call('GET', '/config', { principal: READER })).body)).toHaveProperty('compatibilityLevel');
  });
});
