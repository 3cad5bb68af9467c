import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BatonError } from '@baton/errors';
import { authenticate, mayRead, presentedToken, type ApiKey, type Principal, type Role } from './api-keys.js';
import { createJwtVerifier, looksLikeJwt, type JwtSettings } from './jwt.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The role a route needs; routes without one are open (health, metrics, documents, the page). */
    role?: Role;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

function allows(principal: Principal, role: Role): boolean {
  return role === 'viewer' ? mayRead(principal) : principal.roles.has(role);
}

/**
 * Checks every request to a route that names a role, before its body is read. A credential is an API key
 * or, when `jwt` is set, a bearer JWT of its issuer; the principal of a JWT is its sub.
 */
export function installAccessControl(app: FastifyInstance, keys: readonly ApiKey[], jwt?: JwtSettings): void {
  const verifyJwt = jwt === undefined ? undefined : createJwtVerifier(jwt);
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const role = request.routeOptions.config.role;
    if (role === undefined) return;
    const token = presentedToken(request.headers);
    if (token === undefined) {
      throw new BatonError('UNAUTHENTICATED', 'send a credential: Authorization: Bearer <token> or X-API-Key');
    }
    let principal = authenticate(keys, token);
    if (principal === undefined && verifyJwt !== undefined && looksLikeJwt(token)) principal = await verifyJwt(token);
    if (principal === undefined) throw new BatonError('UNAUTHENTICATED', 'the credential is not known');
    if (!allows(principal, role)) {
      throw new BatonError('FORBIDDEN', `${request.method} ${request.routeOptions.url} needs the ${role} role`);
    }
    request.principal = principal;
  });
}

/** The principal of a request that passed access control. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === undefined) throw new Error(`route ${request.routeOptions.url} has no role`);
  return request.principal;
}

/**
 * Refuses with FORBIDDEN a publish whose sender_id the request's credential is not bound to; a credential
 * bound to no senders may publish as anyone. `path` is where the sender_id sits in the request body.
 */
export function assertMaySendAs(request: FastifyRequest, senderId: unknown, path: string): void {
  const senders = principalOf(request).senders;
  if (senders === undefined) return;
  if (typeof senderId === 'string' && senders.has(senderId)) return;
  throw new BatonError(
    'FORBIDDEN',
    `the credential ${principalOf(request).name} may publish only as ${[...senders].join(', ') || 'no sender'}`,
    { path },
  );
}

/** The value at a path of nested objects in an unvalidated body. */
export function fieldOf(body: unknown, ...steps: string[]): unknown {
  let value = body;
  for (const step of steps) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}
