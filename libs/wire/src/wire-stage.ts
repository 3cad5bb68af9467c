import { isPromiseLike } from '@baton/errors';

/**
 * What a codec does to a message besides Avro: `seal` runs on every message it writes, before
 * encoding (encrypting personal fields, then signing); `open` runs on every message it reads, in
 * the reverse order, before the JSON Schemas check it (verifying the signature over the bytes as
 * sent, then decrypting). A stage leaves alone what it has nothing to do with. `open` throws a
 * BatonError whose code says why the message is refused: the consumer dead-letters it with it.
 */
export interface WireStage {
  seal(message: unknown): unknown;
  /**
   * Record headers that vouch for `value`, the encoding of `sealed` (what seal returned): a seal of
   * the record's exact bytes, which a writer sends as headers beside them. Undefined for none.
   */
  headers?(sealed: unknown, value: Buffer): Readonly<Record<string, string>> | undefined;
  open(message: unknown, facts?: ReadFacts): unknown;
  /** Whether `open` looks at the record's facts: a reader makes them only for a codec with such a stage. */
  readonly readsFacts?: boolean;
}

/**
 * What a stage opening a consumed record may know besides the message (its value as read, its
 * headers), and what it tells the reader back: that the message's signature is known to be good.
 */
export interface ReadFacts {
  readonly value: Buffer;
  header(name: string): string | undefined;
  /** Set by the signing stage: the sender the record is known to come from (its signature or seal checked). */
  verified?: { senderId: string };
  /** The value's digest, once the signing stage worked it out to check a seal: sealing the value again needs no second pass over it. */
  digest?: Buffer;
}

/** The stages of the kinds of message a service signs and encrypts. */
export interface WireStages {
  handoff?: readonly WireStage[];
  lifecycle?: readonly WireStage[];
  /** An outcome event: signed by the service that reports it, verified by the tracker and the gateway. */
  outcome?: readonly WireStage[];
  /** A negotiated handoff's staged context: it carries the handoff offered, personal fields and all. */
  staged?: readonly WireStage[];
}

export function sealWith(stages: readonly WireStage[], message: unknown): unknown {
  let sealed = message;
  for (const stage of stages) sealed = stage.seal(sealed);
  return sealed;
}

/**
 * `message` opened by each stage in turn, at once while each stage opens at once (as signing and
 * field encryption do): a Promise only from the first stage that returns one. Every record a
 * service reads is opened, and an async step per record was an allocation and a turn of the
 * microtask queue more for nothing to wait for.
 */
export function openWith(stages: readonly WireStage[], message: unknown, facts?: ReadFacts): unknown {
  let opened = message;
  for (let index = stages.length - 1; index >= 0; index -= 1) {
    opened = stages[index]!.open(opened, facts);
    if (isPromiseLike(opened)) return openRest(stages, index, opened, facts);
  }
  return opened;
}

async function openRest(
  stages: readonly WireStage[],
  index: number,
  waiting: PromiseLike<unknown>,
  facts: ReadFacts | undefined,
): Promise<unknown> {
  let opened = await waiting;
  for (let next = index - 1; next >= 0; next -= 1) opened = await stages[next]!.open(opened, facts);
  return opened;
}
