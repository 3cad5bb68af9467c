import { createHash } from 'node:crypto';
import { BatonError } from '@baton/errors';
import type { StoredContextRef } from '@baton/kafka';
import type { ContextSink } from './context-offer.js';
import type { ContextSource } from './context-takeover.js';

/** What a memory context store was asked to put. */
export interface ContextPut {
  key: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * For unit tests: a context store in memory. put keeps the bytes under a made-up uri (and records
 * what it was asked), get gives them back or fails with CONTEXT_NOT_FOUND.
 */
export function memoryContextStore(): ContextSink & ContextSource & { puts: ContextPut[] } {
  const stored = new Map<string, Buffer>();
  const puts: ContextPut[] = [];
  return {
    puts,
    async put(bytes, options) {
      const uri = `kafka://baton.contexts/0/${puts.length}`;
      puts.push({ ...options, bytes });
      stored.set(uri, bytes);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      return { uri, sha256, size_bytes: bytes.length, content_type: options.contentType };
    },
    async get(ref: StoredContextRef) {
      const bytes = stored.get(ref.uri);
      if (bytes === undefined) throw new BatonError('CONTEXT_NOT_FOUND', `nothing at ${ref.uri}`);
      return bytes;
    },
  };
}
