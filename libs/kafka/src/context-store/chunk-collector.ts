import { BatonError } from '@baton/errors';
import type { RecordHeaders } from '../headers/record-headers.js';
import { readChunkFacts } from './chunk-headers.js';
import { contextNotFound } from './context-not-found.js';
import { CONTEXT_REF_PATHS } from './stored-context-ref.js';

/**
 * Gathers one stored context's chunks from the records of its partition, read in offset order from
 * the uri's offset. The record at that offset is the put's first chunk and names the put's id; the
 * other chunks are the later records carrying that id, whatever other writers put between them.
 * A record seen twice (a re-read after the reader rejoined its group) counts once.
 */
export class ChunkCollector {
  private contextId: string | undefined;
  private count = 0;
  private readonly chunks = new Map<number, Buffer>();

  constructor(
    private readonly uri: string,
    private readonly firstOffset: bigint,
  ) {}

  add(offset: bigint, headers: RecordHeaders, value: Buffer | null): void {
    if (offset < this.firstOffset) return;
    const facts = readChunkFacts(headers);
    if (this.contextId === undefined) {
      if (offset !== this.firstOffset) {
        throw this.notFound(`the record at offset ${this.firstOffset} is gone (the first one read is ${offset})`);
      }
      if (facts === undefined || facts.index !== 0) {
        throw this.notFound(`the record at offset ${offset} is not the first chunk of a stored context`);
      }
      this.contextId = facts.contextId;
      this.count = facts.count;
    }
    if (facts?.contextId !== this.contextId) return;
    if (facts.count !== this.count) {
      throw new BatonError(
        'CONTEXT_INTEGRITY_FAILED',
        `context ${this.uri}: chunk ${facts.index} at offset ${offset} claims ${facts.count} chunks, the first one ${this.count}`,
        { path: CONTEXT_REF_PATHS.uri, details: { uri: this.uri, offset: String(offset) } },
      );
    }
    if (!this.chunks.has(facts.index)) this.chunks.set(facts.index, value ?? Buffer.alloc(0));
  }

  get isComplete(): boolean {
    return this.contextId !== undefined && this.chunks.size === this.count;
  }

  /** The chunk indexes not seen yet (all of them, as far as is known, before the first chunk). */
  missingChunks(): number[] {
    return Array.from({ length: this.count }, (_, index) => index).filter((index) => !this.chunks.has(index));
  }

  /** The error for a partition read to its end without every chunk. */
  incomplete(endOffset: bigint): BatonError {
    if (this.contextId === undefined) {
      return this.notFound(`no record at offset ${this.firstOffset} (the partition ends at ${endOffset})`);
    }
    return this.notFound(
      `chunks ${this.missingChunks().join(', ')} of ${this.count} are missing before the partition's end (${endOffset})`,
    );
  }

  /** The context's bytes, its chunks joined in index order. Only once complete. */
  assemble(): Buffer {
    if (!this.isComplete)
      throw new Error(`context ${this.uri} is not complete: chunks ${this.missingChunks().join(', ')}`);
    return Buffer.concat(Array.from({ length: this.count }, (_, index) => this.chunks.get(index) ?? Buffer.alloc(0)));
  }

  private notFound(reason: string): BatonError {
    return contextNotFound(this.uri, reason);
  }
}
