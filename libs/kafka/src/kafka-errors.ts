import { BatonError } from '@baton/errors';
import type { KafkaSecurity } from './security/kafka-security.js';

/** The cluster a client was made for, which an error message names. */
export interface KafkaTarget {
  readonly brokers: readonly string[];
  readonly security?: KafkaSecurity | undefined;
}

/** What of a kafkajs error is read here: kafkajs's classes are not imported, only their shape. */
interface KafkajsErrorShape {
  name?: unknown;
  message?: unknown;
  /** A protocol error's Kafka error name (TOPIC_AUTHORIZATION_FAILED); absent on others. */
  type?: unknown;
  /** A connection error's Node error code (ECONNREFUSED, CERT_HAS_EXPIRED). */
  code?: unknown;
  cause?: unknown;
  /** KafkaJSAggregateError's parts, as createTopics throws one per refused topic. */
  errors?: unknown;
}

/** The broker's answers that mean its ACLs deny this principal the operation. */
const AUTHORIZATION_FAILURES = new Set([
  'TOPIC_AUTHORIZATION_FAILED',
  'GROUP_AUTHORIZATION_FAILED',
  'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
  'CLUSTER_AUTHORIZATION_FAILED',
]);

/** Node's codes for a broker certificate the client does not trust (openssl's verify errors). */
const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
]);

/** Node's codes for a broker certificate outside its validity period. */
const OUT_OF_DATE_CERTIFICATE = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/**
 * The BatonError a kafkajs failure means when the cause is the connection's security or the
 * cluster's ACLs, which no retry mends: KAFKA_AUTH_FAILED (SASL refused, TLS failed) or
 * KAFKA_NOT_AUTHORIZED. Undefined for anything else, such as a broker that is down. kafkajs wraps
 * what failed (retries exhausted, non-retriable), so the whole cause chain is searched. The
 * message names the brokers, the cause and the variables to check; a password is never in it:
 * kafkajs's and the broker's messages do not quote it, and it is cut out should one ever do so.
 */
export function kafkaSecurityError(error: unknown, target: KafkaTarget): BatonError | undefined {
  for (const failure of causeChain(error)) {
    const explained = explain(failure, target);
    if (explained !== undefined) {
      const [code, message, details] = explained;
      return new BatonError(code, withoutSecrets(message, target.security), {
        cause: error,
        details: { brokers: [...target.brokers], ...details },
      });
    }
  }
  return undefined;
}

/**
 * A failure to connect while a process starts, as a BatonError: a security or ACL failure as
 * kafkaSecurityError explains it, anything else KAFKA_UNAVAILABLE. For the first contact with the
 * cluster, so that a start stops naming the cause instead of leaving a bare kafkajs error.
 */
export function kafkaConnectError(error: unknown, target: KafkaTarget): BatonError {
  return (
    kafkaSecurityError(error, target) ??
    new BatonError(
      'KAFKA_UNAVAILABLE',
      withoutSecrets(`Kafka at ${target.brokers.join(',')}: ${messageOf(error)}`, target.security),
      { cause: error, details: { brokers: [...target.brokers] } },
    )
  );
}

type Explanation = [
  code: 'KAFKA_AUTH_FAILED' | 'KAFKA_NOT_AUTHORIZED',
  message: string,
  details: Record<string, unknown>,
];

function explain(failure: KafkajsErrorShape, target: KafkaTarget): Explanation | undefined {
  const at = `Kafka at ${target.brokers.join(',')}`;
  const message = messageOf(failure);
  const sasl = target.security?.sasl;
  const login = sasl ? `SASL ${sasl.mechanism} as user "${sasl.username}"` : 'SASL';
  if (failure.name === 'KafkaJSSASLAuthenticationError' || failure.type === 'SASL_AUTHENTICATION_FAILED') {
    return [
      'KAFKA_AUTH_FAILED',
      `${at} refused ${login}: ${message}. Check KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD and KAFKA_SASL_MECHANISM.`,
      { failed: 'sasl' },
    ];
  }
  if (failure.type === 'UNSUPPORTED_SASL_MECHANISM') {
    return [
      'KAFKA_AUTH_FAILED',
      `${at} does not enable ${login}: ${message}. Check KAFKA_SASL_MECHANISM.`,
      { failed: 'sasl' },
    ];
  }
  if (failure.type === 'ILLEGAL_SASL_STATE') {
    return [
      'KAFKA_AUTH_FAILED',
      `${at} answered the SASL handshake out of turn: ${message}. Is the listener a SASL one? Check KAFKA_SECURITY_PROTOCOL and the port.`,
      { failed: 'sasl' },
    ];
  }
  if (typeof failure.type === 'string' && AUTHORIZATION_FAILURES.has(failure.type)) {
    return [
      'KAFKA_NOT_AUTHORIZED',
      `${at} denied ${sasl ? `user "${sasl.username}"` : 'this client'} the operation (${failure.type}): ${message}. Grant the ACLs the service needs.`,
      { denied: failure.type },
    ];
  }
  const tls = tlsFailure(failure);
  if (tls !== undefined) return ['KAFKA_AUTH_FAILED', `TLS to ${at} failed: ${message}. ${tls}`, { failed: 'tls' }];
  return undefined;
}

/** What to check for a TLS failure, or undefined when `failure` is not one. */
function tlsFailure(failure: KafkajsErrorShape): string | undefined {
  if (failure.name !== 'KafkaJSConnectionError' || typeof failure.code !== 'string') return undefined;
  const code = failure.code;
  if (UNTRUSTED_CERTIFICATE.has(code)) {
    return `The brokers' certificate is not trusted (${code}): set KAFKA_SSL_CA_FILE to the CA bundle that signed it.`;
  }
  if (OUT_OF_DATE_CERTIFICATE.has(code)) {
    return `The brokers' certificate is outside its validity period (${code}): renew it, or check this machine's clock.`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `The brokers' certificate does not name the host in KAFKA_BROKERS (${code}): connect by a name the certificate holds.`;
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') {
    return `The listener does not speak TLS (${code}): check KAFKA_SECURITY_PROTOCOL and the port.`;
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) {
    return `The broker refused the handshake (${code}): if it requires a client certificate, check KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE.`;
  }
  return undefined;
}

/** `error`, then what it wraps: kafkajs's `cause`, and each part of an aggregate error. */
function* causeChain(error: unknown): Generator<KafkajsErrorShape> {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const next = pending.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const shape = next as KafkajsErrorShape;
    yield shape;
    pending.push(shape.cause);
    if (Array.isArray(shape.errors)) pending.push(...(shape.errors as unknown[]));
  }
}

function messageOf(error: unknown): string {
  const message = (error as KafkajsErrorShape | undefined)?.message;
  return typeof message === 'string' && message !== '' ? message.replace(/\.$/, '') : String(error);
}

function withoutSecrets(message: string, security: KafkaSecurity | undefined): string {
  const secrets = [security?.sasl?.password, security?.tls?.keyPassword].filter(
    (secret): secret is string => secret !== undefined && secret !== '',
  );
  return secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), message);
}
