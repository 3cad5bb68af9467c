import { createHash, timingSafeEqual } from 'node:crypto';
import { BatonError } from '@baton/errors';

/**
 * `personal-data` guards no route: it lets a reader see the personal fields of the message bodies
 * the gateway shows (dead letters) in clear; a reader without it sees them masked.
 * `trust-override` guards no route either: it lets an operator replay a dead letter the trust gate
 * refuses (`override_trust`), each such replay audited. No credential has it unless given it.
 */
export const ROLES = ['viewer', 'publisher', 'operator', 'personal-data', 'trust-override'] as const;
export type Role = (typeof ROLES)[number];

/** A configured credential. Only the token's digest is kept, so a heap dump or a log cannot show it. */
export interface ApiKey {
  name: string;
  roles: ReadonlySet<Role>;
  /** The sender ids it may publish as; undefined: any. */
  senders?: ReadonlySet<string>;
  /**
   * How a key that may publish came to be bound to no sender: `senders=*` written (explicit) or no
   * senders field at all (omitted). Undefined for a bound key and a key that cannot publish.
   */
  unbound?: 'explicit' | 'omitted';
  tokenDigest: Buffer;
}

export interface Principal {
  name: string;
  roles: ReadonlySet<Role>;
  /** The sender ids it may publish handoffs as; undefined: any. */
  senders?: ReadonlySet<string>;
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * Reads `BATON_API_KEYS`: comma-separated `name:token:role+role` entries, each optionally followed by
 * `:senders=a|b`, the sender ids the key may publish as, or `:senders=*`, any sender (as is a
 * publisher without the field; `unboundPublisherWarnings` names both). A malformed entry stops
 * the gateway with CONFIG_INVALID naming the entry by its name, never by its token.
 */
export function parseApiKeys(raw: string): ApiKey[] {
  const keys: ApiKey[] = [];
  for (const [index, entry] of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .entries()) {
    const [name, token, roleList, binding, ...rest] = entry.split(':');
    const where = { path: `/env/BATON_API_KEYS/${index}` };
    if (!name || !token || !roleList || rest.length > 0) {
      throw new BatonError(
        'CONFIG_INVALID',
        `BATON_API_KEYS entry ${index} is not name:token:role+role[:senders=a|b or senders=*]`,
        where,
      );
    }
    const anySender = binding !== undefined && /^\s*senders\s*=\s*\*\s*$/.test(binding);
    const senders = binding === undefined || anySender ? undefined : parseSenders(binding);
    if (senders !== undefined && (senders.size === 0 || senders.has('*'))) {
      throw new BatonError(
        'CONFIG_INVALID',
        `BATON_API_KEYS entry "${name}" has a fourth field that is not senders=a|b or senders=*`,
        where,
      );
    }
    const roles = roleList.split('+').map((role) => role.trim());
    const unknown = roles.filter((role) => !isRole(role));
    if (unknown.length > 0) {
      throw new BatonError(
        'CONFIG_INVALID',
        `BATON_API_KEYS entry "${name}" has unknown roles ${unknown.join(', ')}; roles are ${ROLES.join(', ')}`,
        where,
      );
    }
    if (keys.some((key) => key.name === name)) {
      throw new BatonError('CONFIG_INVALID', `BATON_API_KEYS names "${name}" twice`, where);
    }
    const granted = new Set(roles.filter(isRole));
    const unbound = !granted.has('publisher') || senders !== undefined ? undefined : anySender ? 'explicit' : 'omitted';
    keys.push({
      name,
      roles: granted,
      ...(senders === undefined ? {} : { senders }),
      ...(unbound === undefined ? {} : { unbound }),
      tokenDigest: digest(token),
    });
  }
  return keys;
}

/**
 * One warning per key that may publish as any sender, internal agents included (a router, a
 * triage agent): what the gateway logs at start. Such a key is a choice to make knowingly.
 */
export function unboundPublisherWarnings(keys: readonly ApiKey[]): string[] {
  return keys.flatMap((key) => {
    switch (key.unbound) {
      case 'explicit':
        return [`API key "${key.name}" may publish as any sender (senders=*), internal agents included`];
      case 'omitted':
        return [
          `API key "${key.name}" is bound to no sender, so it may publish as any, internal agents included: add senders=a|b, or senders=* to mean it`,
        ];
      default:
        return [];
    }
  });
}

/** `senders=a|b`; an empty set when the field has another shape or names no sender. */
function parseSenders(field: string): ReadonlySet<string> {
  const match = /^\s*senders\s*=(.*)$/.exec(field);
  if (!match) return new Set();
  return new Set(
    match[1]!
      .split('|')
      .map((sender) => sender.trim())
      .filter(Boolean),
  );
}

/** The credential of a request: `Authorization: Bearer <token>` or `X-API-Key: <token>`. */
export function presentedToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1];
  }
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined;
}

/** The principal a token belongs to; digests are compared in constant time, every key each time. */
export function authenticate(keys: readonly ApiKey[], token: string): Principal | undefined {
  const presented = digest(token);
  let found: ApiKey | undefined;
  for (const key of keys) {
    if (timingSafeEqual(key.tokenDigest, presented)) found = key;
  }
  if (found === undefined) return undefined;
  return { name: found.name, roles: found.roles, ...(found.senders === undefined ? {} : { senders: found.senders }) };
}

/** Whether the bodies shown to `principal` carry personal fields in clear rather than masked. */
export function maySeePersonalData(principal: Principal): boolean {
  return principal.roles.has('personal-data');
}

/** Whether `principal` may replay a dead letter the trust gate refuses. */
export function mayOverrideTrust(principal: Principal): boolean {
  return principal.roles.has('trust-override');
}

/** Operators may read everything a viewer may. */
export function mayRead(principal: Principal): boolean {
  return principal.roles.has('viewer') || principal.roles.has('operator');
}
