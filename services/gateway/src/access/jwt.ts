import { BatonError } from '@baton/errors';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { ROLES, type Principal, type Role } from './api-keys.js';

/** OAuth2 bearer tokens (JWT) verified against the issuer's key set (BATON_JWT_*). */
export interface JwtSettings {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** Claim holding the roles: a string array or a space-separated string; a dotted path reaches nested claims. */
  rolesClaim: string;
  /** Claim holding the sender ids the token may publish as; undefined: any sender. */
  sendersClaim: string | undefined;
  /** Least time between two fetches of the key set caused by an unknown key id. */
  jwksCooldownMs: number;
}

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'EdDSA'];
const CLOCK_TOLERANCE_S = 30;

function claimAt(payload: JWTPayload, path: string): unknown {
  if (path in payload) return payload[path];
  let value: unknown = payload;
  for (const step of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

function names(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Why jose refused a token, said without the token. */
function refusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'the token is from another issuer';
    if (error.claim === 'aud') return 'the token is for another audience';
    if (error.claim === 'nbf') return 'the token is not valid yet';
    return `the token's ${error.claim} claim is invalid`;
  }
  if (error instanceof errors.JWKSNoMatchingKey) return "the token is signed by a key not in the issuer's key set";
  if (error instanceof errors.JWKSMultipleMatchingKeys) return 'the token names no key the key set tells apart';
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature is not valid";
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's signing algorithm is not accepted";
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return "the issuer's key set could not be fetched";
  }
  if (error instanceof errors.JOSEError) return 'the token is malformed';
  return "the issuer's key set could not be fetched";
}

/** True when a presented credential has the shape of a JWS compact token. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

/**
 * Verifies bearer tokens: signature by a key of the issuer's JWKS (fetched again, at most once per cooldown,
 * when a token names a key id not in the cached set: key rotation needs no restart), iss, aud, exp and nbf
 * with a 30 s clock tolerance. The principal is the token's sub.
 */
export function createJwtVerifier(settings: JwtSettings): (token: string) => Promise<Principal> {
  const keySet = createRemoteJWKSet(new URL(settings.jwksUrl), { cooldownDuration: settings.jwksCooldownMs });
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySet, {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      throw new BatonError('UNAUTHENTICATED', `the bearer token is refused: ${refusal(error)}`);
    }
    const roles = new Set(names(claimAt(payload, settings.rolesClaim)).filter(isRole));
    const principal: Principal = { name: payload.sub ?? '', roles };
    if (settings.sendersClaim === undefined) return principal;
    return { ...principal, senders: new Set(names(claimAt(payload, settings.sendersClaim))) };
  };
}
