import { configInvalid, keyPairSetting, optionalSetting, pemFileSetting, secretSetting, type Env } from '@baton/errors';
import type { KafkaSasl, KafkaSaslMechanism, KafkaSecurity, KafkaTls } from './kafka-security.js';

/** The Java client's `security.protocol` values, so one set of names serves every client of a cluster. */
export const KAFKA_SECURITY_PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const;
export type KafkaSecurityProtocol = (typeof KAFKA_SECURITY_PROTOCOLS)[number];

export const KAFKA_SASL_MECHANISMS: readonly KafkaSaslMechanism[] = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'];

/** Only meaningful with TLS: set under PLAINTEXT or SASL_PLAINTEXT, they would be silently ignored. */
const TLS_VARIABLES = [
  'KAFKA_SSL_CA_FILE',
  'KAFKA_SSL_CERT_FILE',
  'KAFKA_SSL_KEY_FILE',
  'KAFKA_SSL_KEY_PASSWORD',
  'KAFKA_SSL_KEY_PASSWORD_FILE',
] as const;

/** Only meaningful with SASL_PLAINTEXT or SASL_SSL. */
const SASL_VARIABLES = [
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'KAFKA_SASL_PASSWORD_FILE',
] as const;

/**
 * How every Baton process connects to Kafka, read from its environment in this one place:
 *
 * - KAFKA_SECURITY_PROTOCOL: PLAINTEXT (default), SSL, SASL_PLAINTEXT or SASL_SSL, as the Java
 *   client names them (any case).
 * - KAFKA_SSL_CA_FILE: PEM bundle the brokers' certificates chain to; unset, Node's public CAs
 *   (which Confluent Cloud's and MSK's certificates chain to).
 * - KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE: the client's certificate and key for mutual TLS,
 *   both or neither; KAFKA_SSL_KEY_PASSWORD or KAFKA_SSL_KEY_PASSWORD_FILE for an encrypted key.
 * - KAFKA_SASL_MECHANISM (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), KAFKA_SASL_USERNAME, and
 *   KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE: required with SASL_*.
 *
 * A setting the protocol would ignore is refused rather than dropped, since it means the operator
 * believes the connection is protected in a way it is not. Every refusal is CONFIG_INVALID naming
 * the variable, never a secret's value. The brokers' host names are always verified.
 */
export function kafkaSecurityFromEnv(env: Env = process.env): KafkaSecurity {
  const protocol = securityProtocolOf(env);
  const usesTls = protocol === 'SSL' || protocol === 'SASL_SSL';
  const usesSasl = protocol === 'SASL_PLAINTEXT' || protocol === 'SASL_SSL';
  if (!usesTls) refuseSetVariables(env, TLS_VARIABLES, protocol, 'SSL or SASL_SSL');
  if (!usesSasl) refuseSetVariables(env, SASL_VARIABLES, protocol, 'SASL_PLAINTEXT or SASL_SSL');
  return {
    ...(usesTls ? { tls: tlsFromEnv(env) } : {}),
    ...(usesSasl ? { sasl: saslFromEnv(env) } : {}),
  };
}

function securityProtocolOf(env: Env): KafkaSecurityProtocol {
  const raw = optionalSetting(env, 'KAFKA_SECURITY_PROTOCOL')?.trim().toUpperCase() || 'PLAINTEXT';
  const protocol = KAFKA_SECURITY_PROTOCOLS.find((known) => known === raw);
  if (protocol === undefined) {
    throw configInvalid(
      'KAFKA_SECURITY_PROTOCOL',
      `KAFKA_SECURITY_PROTOCOL must be one of ${KAFKA_SECURITY_PROTOCOLS.join(', ')}, not "${raw}"`,
    );
  }
  return protocol;
}

function refuseSetVariables(env: Env, variables: readonly string[], protocol: string, needs: string): void {
  const set = variables.find((variable) => optionalSetting(env, variable) !== undefined);
  if (set !== undefined) {
    throw configInvalid(
      set,
      `${set} is set but KAFKA_SECURITY_PROTOCOL is ${protocol}: set KAFKA_SECURITY_PROTOCOL to ${needs}, or unset ${set}`,
    );
  }
}

function tlsFromEnv(env: Env): KafkaTls {
  const ca = pemFileSetting(env, 'KAFKA_SSL_CA_FILE', 'CERTIFICATE');
  const pair = keyPairSetting(env, {
    cert: 'KAFKA_SSL_CERT_FILE',
    key: 'KAFKA_SSL_KEY_FILE',
    password: 'KAFKA_SSL_KEY_PASSWORD',
  });
  return {
    ...(ca !== undefined ? { ca } : {}),
    ...(pair !== undefined ? { cert: pair.cert, key: pair.key } : {}),
    ...(pair?.password !== undefined ? { keyPassword: pair.password } : {}),
  };
}

function saslFromEnv(env: Env): KafkaSasl {
  const mechanism = saslMechanismOf(env);
  const username = optionalSetting(env, 'KAFKA_SASL_USERNAME');
  if (username === undefined) {
    throw configInvalid('KAFKA_SASL_USERNAME', 'KAFKA_SASL_USERNAME is required with SASL_PLAINTEXT and SASL_SSL');
  }
  const password = secretSetting(env, 'KAFKA_SASL_PASSWORD');
  if (password === undefined || password === '') {
    throw configInvalid(
      'KAFKA_SASL_PASSWORD',
      'KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE is required with SASL_PLAINTEXT and SASL_SSL',
    );
  }
  return { mechanism, username, password };
}

function saslMechanismOf(env: Env): KafkaSaslMechanism {
  const raw = optionalSetting(env, 'KAFKA_SASL_MECHANISM')?.trim().toUpperCase();
  if (raw === undefined || raw === '') {
    throw configInvalid(
      'KAFKA_SASL_MECHANISM',
      `KAFKA_SASL_MECHANISM is required with SASL_PLAINTEXT and SASL_SSL: one of ${KAFKA_SASL_MECHANISMS.join(', ')}`,
    );
  }
  if (raw === 'OAUTHBEARER') {
    throw configInvalid(
      'KAFKA_SASL_MECHANISM',
      `KAFKA_SASL_MECHANISM OAUTHBEARER is not supported: use one of ${KAFKA_SASL_MECHANISMS.join(', ')}`,
    );
  }
  const mechanism = KAFKA_SASL_MECHANISMS.find((known) => known === raw);
  if (mechanism === undefined) {
    throw configInvalid(
      'KAFKA_SASL_MECHANISM',
      `KAFKA_SASL_MECHANISM must be one of ${KAFKA_SASL_MECHANISMS.join(', ')}, not "${raw}"`,
    );
  }
  return mechanism;
}
