import { BatonError } from '@baton/errors';
import { PersonalFields, fieldEncryptionStage, type KeyRingSource } from '@baton/field-encryption';
import type { ConsumedRecord, DeadLetterContext } from '@baton/kafka';
import { component, type Component, type Handoff, type HandoffServiceContext } from '@baton/runtime';
import { AvroCodec, HANDOFF_CODEC_SPEC, SchemaRegistryClient, type WireStage } from '@baton/wire';

/** What the gate reads a dead letter's body with, and writes its sealed body with. */
export interface GateCodecs {
  /** The body as it travelled, at once; undefined when its writer schema is not known yet. */
  peekUnchecked(bytes: Buffer): unknown;
  /** Avro without signing: a refused message must not come out signed by the router. */
  encode(message: unknown): Buffer;
}

/**
 * BATON_PII_REQUIRED=true: a handoff whose personal fields (those the field-encryption stage
 * encrypts) arrive in clear is refused with PERSONAL_DATA_UNENCRYPTED and forwarded nowhere; every
 * dead letter the router writes holds its personal fields encrypted with the key ring, whatever the
 * refusal (an unsigned third-party handoff is refused for its signature first). Encrypting changes
 * the bytes, so the sender's signature no longer verifies on the dead letter: it is evidence of
 * what was refused, not something to replay.
 */
export class PersonalDataGate {
  private readonly fields = new PersonalFields();
  private readonly encryption: WireStage;
  /** The sealed body of each handoff `check` refused, until its dead letter is written. */
  private readonly sealed = new WeakMap<ConsumedRecord, Buffer>();

  /** Given by `component`, which the service builds before it reads a record. */
  private codecs: GateCodecs | undefined;

  constructor(keyRing: KeyRingSource, codecs?: GateCodecs) {
    this.encryption = fieldEncryptionStage('handoff', keyRing, this.fields);
    this.codecs = codecs;
  }

  /**
   * The gate's codecs in the service: it peeks with the service's codec (whose writer schemas the
   * records read have fetched), and encodes with one of its own without the service's stages, so
   * a refused message does not come out signed by the router. Its schema is registered at start.
   */
  component({ codec, config }: HandoffServiceContext): Component {
    const plain = new AvroCodec(new SchemaRegistryClient(config.schemaRegistry), HANDOFF_CODEC_SPEC);
    this.codecs = {
      peekUnchecked: (bytes) => codec.peekUnchecked(bytes),
      encode: (message) => plain.encode(message as Handoff),
    };
    return component('personal-data-gate', { start: () => plain.register() });
  }

  private get codec(): GateCodecs {
    if (this.codecs === undefined) throw new Error('the personal data gate is used before its component was built');
    return this.codecs;
  }

  /** Throws PERSONAL_DATA_UNENCRYPTED, naming the fields (never their values), when any is in clear. */
  check(message: Handoff, record: ConsumedRecord): void {
    const clear = this.fields.inClear('handoff', message);
    if (clear.length === 0) return;
    this.sealed.set(record, this.codec.encode(this.encryption.seal(message)));
    throw new BatonError(
      'PERSONAL_DATA_UNENCRYPTED',
      `personal fields arrived in clear (${clear.join(', ')}); with BATON_PII_REQUIRED=true only encrypted ones are forwarded`,
      { path: clear[0], details: { stage: 'personal-data', fields: clear } },
    );
  }

  /**
   * The dead letter's value: sealed when the body holds a personal field in clear, else undefined
   * (the record's own). A body that does not decode is kept: nothing in it can be found to seal.
   */
  deadLetterValue({ record, message }: DeadLetterContext<Handoff>): Buffer | undefined {
    const refused = this.sealed.get(record);
    if (refused !== undefined) {
      this.sealed.delete(record);
      return refused;
    }
    if (record.value === null) return undefined;
    let body: unknown;
    try {
      body = message?.value ?? this.codec.peekUnchecked(record.value);
    } catch {
      return undefined;
    }
    if (this.fields.inClear('handoff', body).length === 0) return undefined;
    try {
      return this.codec.encode(this.encryption.seal(body));
    } catch {
      // A body the schema cannot carry sealed: the dead letter keeps its headers, not the clear text.
      return Buffer.alloc(0);
    }
  }
}
