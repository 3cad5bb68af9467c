import { BatonError } from '@baton/errors';
import { parseHandoff, type HandoffMessage, type Immutable } from '@baton/protocol';
import type avro from 'avsc';
import { frameWireFormat, readWireFormat } from './confluent-wire-format.js';
import { HANDOFF_AVRO_SCHEMA, HANDOFF_SUBJECT, parseAvroSchema } from './handoff-avro-schema.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';

function invalidFieldPaths(type: avro.Type, value: unknown): string[] {
  const paths: string[] = [];
  type.isValid(value, { errorHook: (path) => paths.push(`/${path.join('/')}`) });
  return paths;
}

/**
 * Encodes handoff messages as Avro in the Confluent wire format and decodes them back, resolving
 * writer schemas through the registry. Every failure is a BatonError with a stable code.
 */
export class HandoffCodec {
  private constructor(
    private readonly registry: SchemaRegistryClient,
    private readonly writerType: avro.Type,
    /** The registry id of the schema this codec writes with. */
    readonly schemaId: number,
  ) {}

  /** Registers the handoff schema (BACKWARD compatibility) and returns a codec writing with it. */
  static async create(registry: SchemaRegistryClient): Promise<HandoffCodec> {
    const schemaId = await registry.register(HANDOFF_AVRO_SCHEMA, HANDOFF_SUBJECT, 'BACKWARD');
    return new HandoffCodec(registry, parseAvroSchema(HANDOFF_AVRO_SCHEMA), schemaId);
  }

  encode(message: Immutable<HandoffMessage>): Buffer {
    let body: Buffer;
    try {
      body = this.writerType.toBuffer(message);
    } catch (error) {
      const paths = invalidFieldPaths(this.writerType, message);
      throw new BatonError('WIRE_ENCODE_FAILED', `message does not fit the Avro schema at ${paths.join(', ') || '/'}`, {
        cause: error,
        path: paths[0],
        details: { paths },
      });
    }
    return frameWireFormat(this.schemaId, body);
  }

  /**
   * Decodes bytes with the writer schema their id names, without checking the JSON Schemas: for
   * showing what a dead letter holds even when it is invalid.
   */
  async decodeUnchecked(bytes: Buffer): Promise<unknown> {
    const { schemaId, body } = readWireFormat(bytes);
    const type = await this.registry.avroType(schemaId);
    try {
      return type.fromBuffer(body);
    } catch (error) {
      throw new BatonError(
        'WIRE_BODY_INVALID',
        `Avro body of ${body.length} bytes cannot be decoded with schema ${schemaId}: ${(error as Error).message}`,
        { cause: error, details: { schemaId, bodyLength: body.length } },
      );
    }
  }

  /** Decodes and validates: the result is a valid, immutable handoff message or a coded error. */
  async decode(bytes: Buffer): Promise<Immutable<HandoffMessage>> {
    return parseHandoff(await this.decodeUnchecked(bytes));
  }
}
