import { BatonError, isPromiseLike, type MaybePromise } from '@baton/errors';
import type avro from 'avsc';
import { WIRE_HEADER_BYTES, readWireFormat, writeWireHeader } from './confluent-wire-format.js';
import { parseAvroSchema, recordNameSubject, type AvroRecordSchema } from './handoff-avro-schema.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';
import { openWith, sealWith, type ReadFacts, type WireStage } from './wire-stage.js';

/** An encoded value and the headers its stages vouch for it with (see WireStage.headers): a record's value and headers. */
export interface EncodedValue {
  value: Buffer;
  headers?: Readonly<Record<string, string>>;
}

/** What a codec writes and how it checks what it reads. */
export interface AvroCodecSpec<T> {
  schema: AvroRecordSchema;
  /** Checks a decoded value and returns it typed; throws a BatonError when it is invalid. */
  parse(value: unknown): T;
}

function invalidFieldPaths(type: avro.Type, value: unknown): string[] {
  const paths: string[] = [];
  type.isValid(value, { errorHook: (path) => paths.push(`/${path.join('/')}`) });
  return paths;
}

/**
 * Where every codec of the process encodes, behind the wire header, before copying out what it
 * wrote (encoding is synchronous, so one is enough); a larger value gets a buffer of its own.
 */
const scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Encodes values as Avro in the Confluent wire format and decodes them back, resolving writer
 * schemas through the registry. Every failure is a BatonError with a stable code. A codec decodes
 * from the start; it encodes once `register()` has given it the id of the schema it writes with,
 * so a service builds its codecs without the registry and registers them when it starts. Its
 * stages seal what it writes and open what `decode` reads (see WireStage); `decodeUnchecked` shows
 * a value as it travels.
 */
export class AvroCodec<T> {
  private readonly writerType: avro.Type;
  private id: number | undefined;
  private registering: Promise<void> | undefined;
  /**
   * Writer types by schema id, once the registry has given them: every record a service reads
   * names one of very few ids, and a hit decodes without the registry client's two awaits.
   */
  private readonly writerTypes = new Map<number, avro.Type>();

  /** Whether a stage reads a record's facts (ReadFacts): a reader passes them to `read` only then. */
  readonly readsFacts: boolean;

  constructor(
    private readonly registry: SchemaRegistryClient,
    private readonly spec: AvroCodecSpec<T>,
    private readonly stages: readonly WireStage[] = [],
  ) {
    this.writerType = parseAvroSchema(spec.schema);
    this.readsFacts = stages.some((stage) => stage.readsFacts === true);
  }

  /** A codec whose schema is registered: see register. */
  static async create<T>(registry: SchemaRegistryClient, spec: AvroCodecSpec<T>): Promise<AvroCodec<T>> {
    const codec = new AvroCodec(registry, spec);
    await codec.register();
    return codec;
  }

  /** Registers the spec's schema under its record name (BACKWARD), once; a failed attempt may be repeated. */
  register(): Promise<void> {
    this.registering ??= this.registry.register(this.spec.schema, recordNameSubject(this.spec.schema), 'BACKWARD').then(
      (id) => {
        this.id = id;
      },
      (error: unknown) => {
        this.registering = undefined;
        throw error;
      },
    );
    return this.registering;
  }

  /** The registry id of the schema this codec writes with. */
  get schemaId(): number {
    if (this.id === undefined) {
      throw new Error(`the ${this.writerType.name ?? 'Avro'} codec writes only once its schema is registered`);
    }
    return this.id;
  }

  /**
   * The value encoded, for a writer that sends it without headers of the codec's: throws when a
   * stage vouches for it in headers (a seal), which such a writer would drop, leaving the record
   * unverifiable. Those are written with encodeRecord.
   */
  encode(value: T): Buffer {
    const encoded = this.encodeRecord(value);
    if (encoded.headers !== undefined) {
      throw new Error(
        `the ${this.writerType.name ?? 'Avro'} codec seals in headers: write its records with encodeRecord`,
      );
    }
    return encoded.value;
  }

  /** The value encoded, and the headers its stages vouch for it with, for a record of both. */
  encodeRecord(value: T): EncodedValue {
    if (this.stages.length === 0) return { value: this.encodeValue(value) };
    const sealed = sealWith(this.stages, value);
    const bytes = this.encodeValue(sealed);
    let headers: Readonly<Record<string, string>> | undefined;
    for (const stage of this.stages) {
      const added = stage.headers?.(sealed, bytes);
      if (added !== undefined) headers = headers === undefined ? added : { ...headers, ...added };
    }
    return headers === undefined ? { value: bytes } : { value: bytes, headers };
  }

  private encodeValue(sealed: unknown): Buffer {
    let target = scratch;
    let end: number;
    try {
      end = this.writerType.encode(sealed, target, WIRE_HEADER_BYTES);
      if (end < 0) {
        // Larger than the scratch space (by -end bytes): written into a buffer of its exact size.
        target = Buffer.allocUnsafe(scratch.length - end);
        end = this.writerType.encode(sealed, target, WIRE_HEADER_BYTES);
      }
    } catch (error) {
      const paths = invalidFieldPaths(this.writerType, sealed);
      throw new BatonError('WIRE_ENCODE_FAILED', `value does not fit the Avro schema at ${paths.join(', ') || '/'}`, {
        cause: error,
        path: paths[0],
        details: { paths },
      });
    }
    writeWireHeader(target, this.schemaId);
    if (target !== scratch) return target;
    // The one copy the record keeps: avsc's toBuffer copied its own scratch, then framing copied again.
    return Buffer.from(scratch.subarray(0, end));
  }

  /**
   * Decodes bytes with the writer schema their id names, without checking the value: for showing
   * what a dead letter holds even when it is invalid.
   */
  async decodeUnchecked(bytes: Buffer): Promise<unknown> {
    const { schemaId, body } = readWireFormat(bytes);
    return readBody(this.writerTypes.get(schemaId) ?? (await this.fetchWriterType(schemaId)), schemaId, body);
  }

  /**
   * `decodeUnchecked` at once, for a caller that cannot wait: undefined when the writer schema has
   * not been fetched yet. Throws as decodeUnchecked rejects.
   */
  peekUnchecked(bytes: Buffer): unknown {
    const { schemaId, body } = readWireFormat(bytes);
    const writerType = this.writerTypes.get(schemaId);
    return writerType === undefined ? undefined : readBody(writerType, schemaId, body);
  }

  /** Decodes and checks: the result is a valid value or a coded error. */
  async decode(bytes: Buffer): Promise<T> {
    return this.read(bytes);
  }

  /**
   * `decode` at once when nothing has to be waited for: the writer schema is known and every stage
   * opens at once, as for nearly every record a service reads. A Promise otherwise; a coded error
   * is thrown, not returned in a rejected Promise, when the bytes are refused at once.
   */
  read(bytes: Buffer, facts?: ReadFacts): MaybePromise<T> {
    const { schemaId, body } = readWireFormat(bytes);
    const writerType = this.writerTypes.get(schemaId);
    if (writerType === undefined)
      return this.fetchWriterType(schemaId).then((type) => this.checked(type, schemaId, body, facts));
    return this.checked(writerType, schemaId, body, facts);
  }

  private checked(writerType: avro.Type, schemaId: number, body: Buffer, facts?: ReadFacts): MaybePromise<T> {
    const value = readBody(writerType, schemaId, body);
    const opened = this.stages.length === 0 ? value : openWith(this.stages, value, facts);
    return isPromiseLike(opened)
      ? Promise.resolve(opened).then((open) => this.spec.parse(open))
      : this.spec.parse(opened);
  }

  private async fetchWriterType(schemaId: number): Promise<avro.Type> {
    const type = await this.registry.avroType(schemaId);
    this.writerTypes.set(schemaId, type);
    return type;
  }
}

function readBody(type: avro.Type, schemaId: number, body: Buffer): unknown {
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
