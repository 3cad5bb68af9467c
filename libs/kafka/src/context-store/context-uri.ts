import { BatonError } from '@baton/errors';
import { CONTEXT_REF_PATHS } from './stored-context-ref.js';

/** The record a context's first chunk was written to. */
export interface ContextLocation {
  topic: string;
  partition: number;
  offset: bigint;
}

const URI = /^kafka:\/\/([a-zA-Z0-9._-]{1,249})\/(0|[1-9][0-9]{0,9})\/(0|[1-9][0-9]{0,18})$/;
const MAX_PARTITION = 2 ** 31 - 1; // an int32 in the Kafka protocol
const MAX_OFFSET = 2n ** 63n - 1n; // an int64 in the Kafka protocol

export function formatContextUri(location: ContextLocation): string {
  return `kafka://${location.topic}/${location.partition}/${location.offset}`;
}

/**
 * Reads `kafka://<topic>/<partition>/<offset>`, refusing (CONTEXT_REF_INVALID) any other shape
 * and a topic other than `storeTopic`: a store must not be steered into reading topics it does
 * not own.
 */
export function parseContextUri(uri: string, storeTopic: string): ContextLocation {
  const match = URI.exec(uri);
  const [, topic, partition, offset] = match ?? [];
  if (topic === undefined || partition === undefined || offset === undefined) {
    throw invalid(uri, 'is not kafka://<topic>/<partition>/<offset>');
  }
  if (Number(partition) > MAX_PARTITION || BigInt(offset) > MAX_OFFSET) {
    throw invalid(uri, 'has a partition or offset out of range');
  }
  if (topic !== storeTopic) throw invalid(uri, `names topic ${topic}, not the context store's ${storeTopic}`);
  return { topic, partition: Number(partition), offset: BigInt(offset) };
}

function invalid(uri: string, reason: string): BatonError {
  return new BatonError('CONTEXT_REF_INVALID', `context uri ${JSON.stringify(uri)} ${reason}`, {
    path: CONTEXT_REF_PATHS.uri,
    details: { uri },
  });
}
