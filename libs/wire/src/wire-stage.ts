/**
 * What a codec does to a message besides Avro: `seal` runs on every message it writes, before
 * encoding (encrypting personal fields, then signing); `open` runs on every message it reads, in
 * the reverse order, before the JSON Schemas check it (verifying the signature over the bytes as
 * sent, then decrypting). A stage leaves alone what it has nothing to do with. `open` throws a
 * BatonError whose code says why the message is refused: the consumer dead-letters it with it.
 */
export interface WireStage {
  seal(message: unknown): unknown;
  open(message: unknown): unknown;
}

/** The stages of the kinds of message a service signs and encrypts. */
export interface WireStages {
  handoff?: readonly WireStage[];
  lifecycle?: readonly WireStage[];
  /** A negotiated handoff's staged context: it carries the handoff offered, personal fields and all. */
  staged?: readonly WireStage[];
}

export function sealWith(stages: readonly WireStage[], message: unknown): unknown {
  let sealed = message;
  for (const stage of stages) sealed = stage.seal(sealed);
  return sealed;
}

export async function openWith(stages: readonly WireStage[], message: unknown): Promise<unknown> {
  let opened = message;
  for (let index = stages.length - 1; index >= 0; index -= 1) opened = await stages[index]!.open(opened);
  return opened;
}
