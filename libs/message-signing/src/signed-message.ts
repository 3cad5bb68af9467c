/**
 * Where each kind of message carries its signature and names its sender: a handoff in its
 * metadata, a lifecycle message at its top level, an outcome event at its top level with the agent
 * that reports it as its sender.
 */
export type MessageKind = 'handoff' | 'lifecycle' | 'outcome';

type Json = Record<string, unknown>;

interface SignedShape {
  signaturePath: string;
  senderPath: string;
  signatureOf(message: Json): unknown;
  senderOf(message: Json): unknown;
  /** The message without its signature: what is signed. */
  unsigned(message: Json): Json;
  withSignature(message: Json, signature: string): Json;
}

function without(record: Json, name: string): Json {
  const rest = { ...record };
  delete rest[name];
  return rest;
}

const metadataOf = (message: Json): Json => (message.metadata ?? {}) as Json;

export const SIGNED_SHAPES: Readonly<Record<MessageKind, SignedShape>> = {
  handoff: {
    signaturePath: '/metadata/signature',
    senderPath: '/metadata/sender_id',
    signatureOf: (message) => metadataOf(message).signature,
    senderOf: (message) => metadataOf(message).sender_id,
    unsigned: (message) => ({ ...message, metadata: without(metadataOf(message), 'signature') }),
    withSignature: (message, signature) => ({ ...message, metadata: { ...metadataOf(message), signature } }),
  },
  lifecycle: {
    signaturePath: '/signature',
    senderPath: '/sender_id',
    signatureOf: (message) => message.signature,
    senderOf: (message) => message.sender_id,
    unsigned: (message) => without(message, 'signature'),
    withSignature: (message, signature) => ({ ...message, signature }),
  },
  outcome: {
    signaturePath: '/signature',
    senderPath: '/agent_id',
    signatureOf: (message) => message.signature,
    senderOf: (message) => message.agent_id,
    unsigned: (message) => without(message, 'signature'),
    withSignature: (message, signature) => ({ ...message, signature }),
  },
};
