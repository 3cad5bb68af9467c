import { describe, expect, it } from 'vitest';
import { chunkHeaders, readChunkFacts, type ChunkFacts } from './chunk-headers.js';

const FACTS: ChunkFacts = {
  contextId: '6f1c1b5e-5d0c-4a51-9d4c-3f4b1c2d9e10',
  index: 2,
  count: 5,
  sha256: 'ab'.repeat(32),
  contentType: 'application/json',
};

describe('chunk headers', () => {
  it('are string headers that read back to the same facts', () => {
    const headers = chunkHeaders(FACTS);
    expect(headers).toEqual({
      'baton.context.id': FACTS.contextId,
      'baton.context.chunk': '2',
      'baton.context.chunks': '5',
      'baton.context.sha256': FACTS.sha256,
      'content-type': 'application/json',
    });
    expect(readChunkFacts(headers)).toEqual(FACTS);
  });

  it('make no chunk of a record without them, or with an index outside the count', () => {
    expect(readChunkFacts({})).toBeUndefined();
    expect(readChunkFacts({ 'content-type': 'application/json' })).toBeUndefined();
    expect(readChunkFacts({ ...chunkHeaders(FACTS), 'baton.context.chunk': '5' })).toBeUndefined();
    expect(readChunkFacts({ ...chunkHeaders(FACTS), 'baton.context.chunk': '-1' })).toBeUndefined();
    expect(readChunkFacts({ ...chunkHeaders(FACTS), 'baton.context.chunks': 'five' })).toBeUndefined();
    expect(readChunkFacts({ ...chunkHeaders(FACTS), 'baton.context.id': '' })).toBeUndefined();
  });
});
