import type { RecordHeaders } from '../headers/record-headers.js';

/** The headers that make a record a chunk of a stored context (string values, readable in any Kafka tool). */
export const CONTEXT_HEADERS = {
  id: 'baton.context.id',
  chunk: 'baton.context.chunk',
  chunks: 'baton.context.chunks',
  sha256: 'baton.context.sha256',
  contentType: 'content-type',
} as const;

export interface ChunkFacts {
  /** A random UUID of the put that wrote the chunk: other puts' records may sit between its chunks. */
  contextId: string;
  /** 0-based. */
  index: number;
  count: number;
  /** Of the whole context, lowercase hex. */
  sha256: string;
  contentType: string;
}

export function chunkHeaders(facts: ChunkFacts): RecordHeaders {
  return {
    [CONTEXT_HEADERS.id]: facts.contextId,
    [CONTEXT_HEADERS.chunk]: String(facts.index),
    [CONTEXT_HEADERS.chunks]: String(facts.count),
    [CONTEXT_HEADERS.sha256]: facts.sha256,
    [CONTEXT_HEADERS.contentType]: facts.contentType,
  };
}

const COUNT = /^(0|[1-9][0-9]{0,8})$/;

/** The chunk facts of a record, or undefined when its headers do not make it a well-formed chunk. */
export function readChunkFacts(headers: RecordHeaders): ChunkFacts | undefined {
  const contextId = headers[CONTEXT_HEADERS.id];
  const index = headers[CONTEXT_HEADERS.chunk];
  const count = headers[CONTEXT_HEADERS.chunks];
  if (!contextId || index === undefined || count === undefined) return undefined;
  if (!COUNT.test(index) || !COUNT.test(count) || Number(index) >= Number(count)) return undefined;
  return {
    contextId,
    index: Number(index),
    count: Number(count),
    sha256: headers[CONTEXT_HEADERS.sha256] ?? '',
    contentType: headers[CONTEXT_HEADERS.contentType] ?? '',
  };
}
