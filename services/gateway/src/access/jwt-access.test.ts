import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createServiceMetrics } from '@baton/runtime';
import { loadGatewayConfig } from '../gateway-config.js';
import type { GatewayParts } from '../gateway-parts.js';
import { buildGatewayHttp } from '../http/gateway-app.js';

const ISSUER = 'https://login.example.test/realms/baton';
const AUDIENCE = 'baton-gateway';

interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  jwk: JWK;
}

async function signingKey(kid: string, alg: 'RS256' | 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** The issuer's key set as its JWKS endpoint serves it; rotating replaces it. */
let published: SigningKey[] = [];
let jwksFetches = 0;
let jwksServer: Server;
let app: FastifyInstance;
const logLines: string[] = [];
const submitted: unknown[] = [];
/** Every token the tests sign, accepted or refused: none may reach a log line. */
const issued: string[] = [];

interface Claims {
  sub?: string;
  iss?: string;
  aud?: string;
  exp?: number;
  nbf?: number;
  roles?: unknown;
  realm_access?: unknown;
  baton_senders?: unknown;
}

async function token(key: SigningKey, claims: Claims = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const { sub = 'svc-triage', iss = ISSUER, aud = AUDIENCE, exp = now + 300, nbf, ...rest } = claims;
  const jwt = new SignJWT({ roles: ['publisher'], baton_senders: ['triage'], ...rest })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setSubject(sub)
    .setIssuer(iss)
    .setAudience(aud)
    .setIssuedAt()
    .setExpirationTime(exp);
  if (nbf !== undefined) jwt.setNotBefore(nbf);
  const signed = await jwt.sign(key.privateKey);
  issued.push(signed);
  return signed;
}

function handoff(senderId = 'triage'): Record<string, unknown> {
  return { metadata: { sender_id: senderId, recipient_id: 'expert', task_id: 'task-jwt-1' } };
}

function publish(credential: string, senderId?: string) {
  return app.inject({
    method: 'POST',
    url: '/v1/handoffs',
    headers: { authorization: `Bearer ${credential}` },
    payload: handoff(senderId),
  });
}

let rsa: SigningKey;
let ec: SigningKey;

beforeAll(async () => {
  rsa = await signingKey('rsa-1', 'RS256');
  ec = await signingKey('ec-1', 'ES256');
  published = [rsa, ec];
  jwksServer = createServer((request, response) => {
    jwksFetches += 1;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: published.map((key) => key.jwk) }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const { port } = jwksServer.address() as AddressInfo;
  const config = loadGatewayConfig({
    KAFKA_BROKERS: 'localhost:9092',
    SCHEMA_REGISTRY_URL: 'http://localhost:8081',
    BATON_API_KEYS: 'bound:b0und-key:publisher:senders=triage|billing',
    BATON_JWT_ISSUER: ISSUER,
    BATON_JWT_AUDIENCE: AUDIENCE,
    BATON_JWT_JWKS_URL: `http://127.0.0.1:${port}/protocol/openid-connect/certs`,
    BATON_JWT_SENDERS_CLAIM: 'baton_senders',
  });
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  app = (
    await buildGatewayHttp({
      port: 0,
      host: '127.0.0.1',
      // The handoff route uses its submitter only; the other parts are never reached.
      parts: {
        submitter: {
          submit: async (body: unknown) => {
            submitted.push(body);
            return { message_id: 'm-1', task_id: 'task-jwt-1', topic: 'baton.inbound', partition: 0, offset: '0' };
          },
        },
      } as unknown as GatewayParts,
      apiKeys: config.apiKeys,
      // The tests rotate keys at once; the gateway waits 30 s between refetches.
      jwt: config.jwt && { ...config.jwt, jwksCooldownMs: 0 },
      logger: createLogger('gateway-test', 'info', destination),
      metrics: createServiceMetrics({ service: 'gateway-test' }),
      metricsOfRequest: () => undefined,
      isReady: () => true,
    })
  ).app;
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => jwksServer?.close(resolve));
});

describe('bearer JWTs of the configured issuer', () => {
  it('publishes with a valid RS256 or ES256 token, naming its sub in the request log but never the token', async () => {
    const tokens = [await token(rsa), await token(ec, { sub: 'svc-ec' })];
    for (const credential of tokens) {
      const response = await publish(credential);
      expect(response.statusCode, response.body).toBe(202);
    }
    expect(submitted).toHaveLength(2);
    const requestLines = logLines.filter((line) => line.includes('"http.request"'));
    expect(requestLines.some((line) => line.includes('"principal":"svc-triage"'))).toBe(true);
    expect(requestLines.some((line) => line.includes('"principal":"svc-ec"'))).toBe(true);
    for (const credential of tokens) {
      for (const line of logLines) expect(line).not.toContain(credential.split('.')[2]);
    }
  });

  it.each([
    ['expired', { exp: Math.floor(Date.now() / 1000) - 120 }, /expired/],
    ['from another issuer', { iss: 'https://evil.example.test' }, /another issuer/],
    ['for another audience', { aud: 'someone-else' }, /another audience/],
    ['not valid yet', { nbf: Math.floor(Date.now() / 1000) + 600 }, /not valid yet/],
  ])('refuses a token %s with 401 UNAUTHENTICATED saying which check failed', async (_name, claims, message) => {
    const credential = await token(rsa, claims);
    const response = await publish(credential);
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(message) });
    expect(response.body).not.toContain(credential);
  });

  it('accepts a token expired within the clock tolerance', async () => {
    const response = await publish(await token(rsa, { exp: Math.floor(Date.now() / 1000) - 5 }));
    expect(response.statusCode).toBe(202);
  });

  it('refuses a token signed by a key the issuer does not publish, and a malformed or tampered one', async () => {
    const stranger = await signingKey('stranger', 'RS256');
    const unknown = await publish(await token(stranger));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: expect.stringMatching(/key not in/),
    });

    const forged = await publish(await token({ ...stranger, kid: rsa.kid }));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/signature/) });

    const malformed = await publish('abc.def.ghi');
    expect(malformed.statusCode).toBe(401);
    expect(malformed.json().error).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuses a valid token without the route role with 403 FORBIDDEN; roles may be a string or a nested claim', async () => {
    const viewer = await publish(await token(rsa, { roles: ['viewer'] }));
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().error).toMatchObject({ code: 'FORBIDDEN' });
    const none = await publish(await token(rsa, { roles: undefined }));
    expect(none.statusCode).toBe(403);
    expect((await publish(await token(rsa, { roles: 'viewer publisher' }))).statusCode).toBe(202);
  });

  it('accepts a token of a rotated key without a restart, fetching the key set again', async () => {
    const rotated = await signingKey('rsa-2', 'RS256');
    published = [rotated];
    const before = jwksFetches;
    const response = await publish(await token(rotated));
    expect(response.statusCode, response.body).toBe(202);
    expect(jwksFetches).toBeGreaterThan(before);
    published = [rsa, ec, rotated];
  });
});

describe('credentials bound to sender ids', () => {
  it('lets a bound API key publish as its senders only: 403 FORBIDDEN at /metadata/sender_id otherwise', async () => {
    expect((await publish('b0und-key', 'billing')).statusCode).toBe(202);
    const refused = await publish('b0und-key', 'ops_console');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'FORBIDDEN', path: '/metadata/sender_id' });
  });

  it('refuses a negotiation whose handoff names another sender at /handoff/metadata/sender_id', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: '/v1/negotiations',
      headers: { 'x-api-key': 'b0und-key' },
      payload: { handoff: handoff('ops_console'), desired_agent_type: 'NetworkExpert', reason: 'lacks the skill' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'FORBIDDEN', path: '/handoff/metadata/sender_id' });
  });

  it('binds a JWT to the senders of its claim; a token without the claim may publish as no one', async () => {
    const bound = await token(rsa, { baton_senders: ['triage'] });
    const accepted = await publish(bound, 'triage');
    expect(accepted.statusCode, accepted.body).toBe(202);
    const refused = await publish(bound, 'billing');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'FORBIDDEN', path: '/metadata/sender_id' });
    expect((await publish(await token(rsa, { baton_senders: 'billing triage' }), 'billing')).statusCode).toBe(202);
    const unbound = await publish(await token(rsa, { baton_senders: undefined }), 'triage');
    expect(unbound.statusCode).toBe(403);
  });
});

describe('request logs', () => {
  it('never carry a token or an API key, accepted or refused', () => {
    expect(issued.length).toBeGreaterThan(10);
    expect(logLines.length).toBeGreaterThan(10);
    for (const line of logLines) {
      expect(line).not.toContain('b0und-key');
      for (const signed of issued) expect(line).not.toContain(signed.split('.')[2]);
    }
  });
});

describe('BATON_JWT_* configuration', () => {
  const base = { KAFKA_BROKERS: 'localhost:9092', SCHEMA_REGISTRY_URL: 'http://localhost:8081' };

  it('is off without an issuer; with one, the audience and key set URL are required', () => {
    expect(loadGatewayConfig(base).jwt).toBeUndefined();
    expect(() => loadGatewayConfig({ ...base, BATON_JWT_ISSUER: ISSUER })).toThrowError(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/BATON_JWT_AUDIENCE' }),
    );
    expect(() => loadGatewayConfig({ ...base, BATON_JWT_ISSUER: ISSUER, BATON_JWT_AUDIENCE: AUDIENCE })).toThrowError(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/BATON_JWT_JWKS_URL' }),
    );
    expect(() =>
      loadGatewayConfig({
        ...base,
        BATON_JWT_ISSUER: ISSUER,
        BATON_JWT_AUDIENCE: AUDIENCE,
        BATON_JWT_JWKS_URL: 'ftp://x',
      }),
    ).toThrowError(expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/BATON_JWT_JWKS_URL' }));
    expect(
      loadGatewayConfig({
        ...base,
        BATON_JWT_ISSUER: ISSUER,
        BATON_JWT_AUDIENCE: AUDIENCE,
        BATON_JWT_JWKS_URL: `${ISSUER}/protocol/openid-connect/certs`,
        BATON_JWT_ROLES_CLAIM: 'realm_access.roles',
      }).jwt,
    ).toMatchObject({ rolesClaim: 'realm_access.roles', sendersClaim: undefined });
  });
});
