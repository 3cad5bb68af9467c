import type { ConnectionOptions } from 'node:tls';
import type { KafkaConfig, SASLOptions } from 'kafkajs';
import type { KafkaSasl, KafkaSecurity, KafkaTls } from './kafka-security.js';

/**
 * The `ssl` and `sasl` of a kafkajs client connecting with `security`. Nothing here loosens the
 * certificate check: Node verifies the chain (rejectUnauthorized defaults to true) and kafkajs
 * passes each broker's host as `servername`, so the certificate must also name the host.
 */
export function kafkajsSecurity(security: KafkaSecurity = {}): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  return {
    ...(security.tls !== undefined ? { ssl: tlsOptions(security.tls) } : {}),
    ...(security.sasl !== undefined ? { sasl: saslOptions(security.sasl) } : {}),
  };
}

/** An object even when empty: kafkajs connects with TLS whenever `ssl` is truthy. */
function tlsOptions(tls: KafkaTls): ConnectionOptions {
  return {
    // Absent, Node's bundled public CAs apply; given, they are replaced by the bundle.
    ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
    ...(tls.cert !== undefined ? { cert: tls.cert } : {}),
    ...(tls.key !== undefined ? { key: tls.key } : {}),
    ...(tls.keyPassword !== undefined ? { passphrase: tls.keyPassword } : {}),
  };
}

/** kafkajs names the mechanisms in lower case. */
function saslOptions(sasl: KafkaSasl): SASLOptions {
  const credentials = { username: sasl.username, password: sasl.password };
  switch (sasl.mechanism) {
    case 'PLAIN':
      return { mechanism: 'plain', ...credentials };
    case 'SCRAM-SHA-256':
      return { mechanism: 'scram-sha-256', ...credentials };
    case 'SCRAM-SHA-512':
      return { mechanism: 'scram-sha-512', ...credentials };
  }
}
