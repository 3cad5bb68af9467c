import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BatonError } from '@baton/errors';
import { authenticate, mayRead, presentedToken, type ApiKey, type Principal, type Role } from './api-keys.js';

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

/** Checks every request to a route that names a role, before its body is read. */
export function installAccessControl(app: FastifyInstance, keys: readonly ApiKey[]): void {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const role = request.routeOptions.config.role;
    if (role === undefined) return;
    const token = presentedToken(request.headers);
    if (token === undefined) {
      throw new BatonError('UNAUTHENTICATED', 'send a credential: Authorization: Bearer <token> or X-API-Key');
    }
    const principal = authenticate(keys, token);
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
