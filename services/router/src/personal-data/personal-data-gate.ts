import { BatonError } from '@baton/errors';
import { PersonalFields, fieldEncryptionStage, type KeyRingSource } from '@baton/field-encryption';
import type { ConsumedRecord, DeadLetterContext } from '@baton/kafka';
import type { Handoff } from '@baton/runtime';
import type { WireStage } from '@baton/wire';

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

  constructor(
    keyRing: KeyRingSource,
    private readonly codecs: GateCodecs,
  ) {
    this.encryption = fieldEncryptionStage('handoff', keyRing, this.fields);
  }

  /** Throws PERSONAL_DATA_UNENCRYPTED, naming the fields (never their values), when any is in clear. */
  check(message: Handoff, record: ConsumedRecord): void {
    const clear = this.fields.inClear('handoff', message);
    if (clear.length === 0) return;
    this.sealed.set(record, this.codecs.encode(this.encryption.seal(message)));
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
      body = message?.value ?? this.codecs.peekUnchecked(record.value);
    } catch {
      return undefined;
    }
    if (this.fields.inClear('handoff', body).length === 0) return undefined;
    try {
      return this.codecs.encode(this.encryption.seal(body));
    } catch {
      // A body the schema cannot carry sealed: the dead letter keeps its headers, not the clear text.
      return Buffer.alloc(0);
    }
  }
}
