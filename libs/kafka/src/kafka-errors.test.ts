import * as kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { kafkaConnectError, kafkaSecurityError, type KafkaTarget } from './kafka-errors.js';

// kafkajs's typings declare its error classes without their constructors' parameters.
type ErrorClass = new (...args: unknown[]) => Error;
const {
  KafkaJSAggregateError,
  KafkaJSConnectionError,
  KafkaJSCreateTopicError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  KafkaJSSASLAuthenticationError,
} = kafkajs as unknown as Record<
  | 'KafkaJSAggregateError'
  | 'KafkaJSConnectionError'
  | 'KafkaJSCreateTopicError'
  | 'KafkaJSNonRetriableError'
  | 'KafkaJSNumberOfRetriesExceeded'
  | 'KafkaJSProtocolError'
  | 'KafkaJSSASLAuthenticationError',
  ErrorClass
>;

const PASSWORD = 'sasl-Pa55word-never-shown';
const target: KafkaTarget = {
  brokers: ['b-1.example:9096', 'b-2.example:9096'],
  security: { tls: {}, sasl: { mechanism: 'SCRAM-SHA-512', username: 'baton', password: PASSWORD } },
};

/** As kafkajs's retrier wraps a failure that ran out of retries. */
function retriesExceeded(error: Error): Error {
  return new KafkaJSNumberOfRetriesExceeded(error, { retryCount: 5, retryTime: 4800, cause: error });
}

function connectionError(message: string, code: string): Error {
  return new KafkaJSConnectionError(`Connection error: ${message}`, { broker: 'b-1.example:9096', code });
}

function protocolError(type: string, code: number, message = 'refused'): Error {
  return new KafkaJSProtocolError({ type, code, message, retriable: false });
}

describe('kafkaSecurityError', () => {
  it('explains a refused SASL login as KAFKA_AUTH_FAILED naming the user, mechanism and variables', () => {
    const error = kafkaSecurityError(
      new KafkaJSSASLAuthenticationError(
        'SASL SCRAM SHA512 authentication failed: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512',
      ),
      target,
    );
    expect(error?.code).toBe('KAFKA_AUTH_FAILED');
    expect(error?.retriable).toBe(false);
    expect(error?.message).toMatch(
      /^Kafka at b-1\.example:9096,b-2\.example:9096 refused SASL SCRAM-SHA-512 as user "baton"/,
    );
    expect(error?.message).toContain('invalid credentials');
    expect(error?.message).toContain('KAFKA_SASL_PASSWORD');
    expect(error?.details).toMatchObject({ brokers: target.brokers, failed: 'sasl' });
  });

  it('finds the cause under kafkajs’s wrappers', () => {
    const sasl = new KafkaJSSASLAuthenticationError('SASL PLAIN authentication failed: bad');
    const wrapped = new KafkaJSNonRetriableError(sasl, { cause: sasl });
    expect(kafkaSecurityError(wrapped, target)?.code).toBe('KAFKA_AUTH_FAILED');
    expect(kafkaSecurityError(retriesExceeded(connectionError('x', 'CERT_HAS_EXPIRED')), target)?.code).toBe(
      'KAFKA_AUTH_FAILED',
    );
  });

  it('explains a mechanism the brokers do not enable', () => {
    const error = kafkaSecurityError(protocolError('UNSUPPORTED_SASL_MECHANISM', 33), target);
    expect(error?.code).toBe('KAFKA_AUTH_FAILED');
    expect(error?.message).toContain('KAFKA_SASL_MECHANISM');
  });

  it('explains a SASL handshake sent to a listener that is not SASL', () => {
    const error = kafkaSecurityError(retriesExceeded(protocolError('ILLEGAL_SASL_STATE', 34)), target);
    expect(error?.code).toBe('KAFKA_AUTH_FAILED');
    expect(error?.message).toContain('KAFKA_SECURITY_PROTOCOL');
  });

  it.each([
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate', 'KAFKA_SSL_CA_FILE'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain', 'KAFKA_SSL_CA_FILE'],
    ['CERT_HAS_EXPIRED', 'certificate has expired', 'clock'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames", 'KAFKA_BROKERS'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number', 'KAFKA_SECURITY_PROTOCOL'],
    ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'tlsv13 alert certificate required', 'KAFKA_SSL_CERT_FILE'],
  ])('explains the TLS failure %s, pointing at %s', (code, message, variable) => {
    const error = kafkaSecurityError(retriesExceeded(connectionError(message, code)), target);
    expect(error?.code).toBe('KAFKA_AUTH_FAILED');
    expect(error?.message).toMatch(/^TLS to Kafka at b-1\.example:9096,b-2\.example:9096 failed: Connection error: /);
    expect(error?.message).toContain(code);
    expect(error?.message).toContain(variable);
    expect(error?.details).toMatchObject({ failed: 'tls' });
  });

  it.each([
    'TOPIC_AUTHORIZATION_FAILED',
    'GROUP_AUTHORIZATION_FAILED',
    'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
    'CLUSTER_AUTHORIZATION_FAILED',
  ])('explains %s as KAFKA_NOT_AUTHORIZED', (type) => {
    const error = kafkaSecurityError(protocolError(type, 29, 'Not authorized to access topics'), target);
    expect(error?.code).toBe('KAFKA_NOT_AUTHORIZED');
    expect(error?.retriable).toBe(false);
    expect(error?.message).toContain(type);
    expect(error?.message).toContain('user "baton"');
    expect(error?.details).toMatchObject({ denied: type });
  });

  it('finds an authorization failure among the parts of an aggregate error (createTopics)', () => {
    const refused = new KafkaJSCreateTopicError(
      { type: 'TOPIC_AUTHORIZATION_FAILED', code: 29, message: 'not authorized', retriable: false },
      'baton.inbound',
    );
    const aggregate = new KafkaJSAggregateError('Topic creation errors', [refused]);
    expect(kafkaSecurityError(aggregate, target)?.code).toBe('KAFKA_NOT_AUTHORIZED');
  });

  it.each([
    ['a refused connection', retriesExceeded(connectionError('connect ECONNREFUSED 10.0.0.1:9096', 'ECONNREFUSED'))],
    ['a timeout', new KafkaJSConnectionError('Connection timeout', { broker: 'b-1.example:9096' })],
    ['a leader election', protocolError('LEADER_NOT_AVAILABLE', 5)],
    ['a plain error', new Error('boom')],
    ['not an error at all', 'boom'],
  ])('leaves %s alone', (_name, error) => {
    expect(kafkaSecurityError(error, target)).toBeUndefined();
  });

  it('never puts a password in the message, should a broker ever echo it', () => {
    const error = kafkaSecurityError(
      new KafkaJSSASLAuthenticationError(`SASL PLAIN authentication failed: bad password ${PASSWORD}`),
      target,
    );
    expect(error?.message).not.toContain(PASSWORD);
    expect(error?.message).toContain('[redacted]');
    expect(JSON.stringify(error)).not.toContain(PASSWORD);
  });
});

describe('kafkaConnectError', () => {
  it('is the security explanation when there is one', () => {
    expect(kafkaConnectError(new KafkaJSSASLAuthenticationError('bad'), target).code).toBe('KAFKA_AUTH_FAILED');
  });

  it('is KAFKA_UNAVAILABLE naming the brokers otherwise', () => {
    const error = kafkaConnectError(retriesExceeded(connectionError('connect ECONNREFUSED', 'ECONNREFUSED')), target);
    expect(error.code).toBe('KAFKA_UNAVAILABLE');
    expect(error.retriable).toBe(true);
    expect(error.message).toBe('Kafka at b-1.example:9096,b-2.example:9096: Connection error: connect ECONNREFUSED');
  });
});
