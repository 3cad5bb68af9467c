/**
 * How a client proves who it is to the cluster and checks the cluster is who it claims to be.
 * Empty: PLAINTEXT, as the local embedded broker listens.
 */
export interface KafkaSecurity {
  /** Present: every connection is TLS, the server's certificate and host name checked. */
  readonly tls?: KafkaTls;
  /** Present: the client authenticates with SASL after connecting (over TLS when `tls` is set). */
  readonly sasl?: KafkaSasl;
}

export interface KafkaTls {
  /** PEM CA bundle the brokers' certificates chain to; absent: Node's bundled public CAs. */
  readonly ca?: string;
  /** PEM client certificate chain and its private key, for mutual TLS (both or neither). */
  readonly cert?: string;
  readonly key?: string;
  /** The password of an encrypted `key`. */
  readonly keyPassword?: string;
}

export type KafkaSaslMechanism = 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

export interface KafkaSasl {
  readonly mechanism: KafkaSaslMechanism;
  readonly username: string;
  readonly password: string;
}
