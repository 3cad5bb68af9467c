import { createServer, type Server, type Socket } from 'node:net';

/**
 * Just enough of a Kafka broker to refuse a SASL login, for tests of how a client fails on one:
 * it answers ApiVersions (v0 only), SaslHandshake with `enabledMechanisms`, and every
 * SaslAuthenticate with SASL_AUTHENTICATION_FAILED, counting the attempts.
 */
export interface FakeSaslBroker {
  readonly address: string;
  /** SaslAuthenticate requests received: one per login kafkajs attempted. */
  readonly authenticateAttempts: number;
  /** The bytes of every SaslAuthenticate request, as a wire-level record of what was sent. */
  readonly authenticateBytes: Buffer[];
  close(): Promise<void>;
}

const API_VERSIONS = 18;
const SASL_HANDSHAKE = 17;
const SASL_AUTHENTICATE = 36;
const UNSUPPORTED_VERSION = 35;
const SASL_AUTHENTICATION_FAILED = 58;

function int16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeInt16BE(value);
  return buffer;
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

function string(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([int16(bytes.length), bytes]);
}

function body(apiKey: number, apiVersion: number, enabledMechanisms: string[]): Buffer {
  switch (apiKey) {
    case API_VERSIONS: {
      // kafkajs asks with its highest version first and steps down on UNSUPPORTED_VERSION.
      if (apiVersion > 0) return int16(UNSUPPORTED_VERSION);
      const supported = [
        [API_VERSIONS, 0, 0],
        [SASL_HANDSHAKE, 0, 1],
        [SASL_AUTHENTICATE, 0, 0],
      ];
      return Buffer.concat([
        int16(0),
        int32(supported.length),
        ...supported.flatMap(([key, min, max]) => [int16(key!), int16(min!), int16(max!)]),
      ]);
    }
    case SASL_HANDSHAKE:
      return Buffer.concat([int16(0), int32(enabledMechanisms.length), ...enabledMechanisms.map(string)]);
    case SASL_AUTHENTICATE:
      return Buffer.concat([
        int16(SASL_AUTHENTICATION_FAILED),
        string('Authentication failed: Invalid username or password'),
        int32(0),
      ]);
    default:
      throw new Error(`the fake broker does not answer api key ${apiKey}`);
  }
}

export async function startFakeSaslBroker(enabledMechanisms: string[] = ['PLAIN']): Promise<FakeSaslBroker> {
  const authenticateBytes: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const request = pending.subarray(4, 4 + pending.readInt32BE(0));
        pending = pending.subarray(4 + request.length);
        const [apiKey, apiVersion, correlationId] = [
          request.readInt16BE(0),
          request.readInt16BE(2),
          request.readInt32BE(4),
        ];
        if (apiKey === SASL_AUTHENTICATE) authenticateBytes.push(Buffer.from(request));
        const response = Buffer.concat([int32(correlationId), body(apiKey, apiVersion, enabledMechanisms)]);
        socket.write(Buffer.concat([int32(response.length), response]));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    get authenticateAttempts() {
      return authenticateBytes.length;
    },
    authenticateBytes,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
