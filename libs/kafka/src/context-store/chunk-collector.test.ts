import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import { ChunkCollector } from './chunk-collector.js';
import { chunkHeaders } from './chunk-headers.js';

const URI = 'kafka://baton.contexts/1/10';

function chunk(contextId: string, index: number, count: number): Record<string, string> {
  return chunkHeaders({ contextId, index, count, sha256: '00'.repeat(32), contentType: 'text/plain' });
}

function thrown(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('collecting the chunks of a context', () => {
  it('takes the put named by the first record and skips other writers between its chunks', () => {
    const collector = new ChunkCollector(URI, 10n);
    collector.add(9n, chunk('earlier', 0, 1), Buffer.from('before the uri'));
    collector.add(10n, chunk('mine', 0, 3), Buffer.from('ab'));
    collector.add(11n, chunk('theirs', 0, 2), Buffer.from('xx'));
    collector.add(12n, {}, Buffer.from('not a chunk'));
    collector.add(13n, chunk('mine', 1, 3), Buffer.from('cd'));
    expect(collector.isComplete).toBe(false);
    expect(collector.missingChunks()).toEqual([2]);
    collector.add(14n, chunk('theirs', 1, 2), Buffer.from('yy'));
    collector.add(15n, chunk('mine', 2, 3), Buffer.from('e'));
    expect(collector.isComplete).toBe(true);
    expect(collector.assemble().toString()).toBe('abcde');
  });

  it('joins chunks in index order, and counts a record read twice once', () => {
    const collector = new ChunkCollector(URI, 10n);
    collector.add(10n, chunk('mine', 0, 3), Buffer.from('a'));
    collector.add(11n, chunk('mine', 2, 3), Buffer.from('c'));
    // A rejoined reader starts again from the uri's offset.
    collector.add(10n, chunk('mine', 0, 3), Buffer.from('a'));
    collector.add(11n, chunk('mine', 2, 3), Buffer.from('c'));
    collector.add(12n, chunk('mine', 1, 3), Buffer.from('b'));
    expect(collector.assemble().toString()).toBe('abc');
  });

  it('takes a null record value as an empty chunk', () => {
    const collector = new ChunkCollector(URI, 10n);
    collector.add(10n, chunk('mine', 0, 1), null);
    expect(collector.assemble().length).toBe(0);
  });

  it('answers CONTEXT_NOT_FOUND when the record at the offset is gone or is not a first chunk', () => {
    expect(
      hasErrorCode(
        thrown(() => new ChunkCollector(URI, 10n).add(11n, chunk('mine', 0, 1), null)),
        'CONTEXT_NOT_FOUND',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        thrown(() => new ChunkCollector(URI, 10n).add(10n, chunk('mine', 1, 2), null)),
        'CONTEXT_NOT_FOUND',
      ),
    ).toBe(true);
    const notAChunk = thrown(() => new ChunkCollector(URI, 10n).add(10n, {}, Buffer.from('x')));
    expect(notAChunk).toMatchObject({ code: 'CONTEXT_NOT_FOUND', retriable: false, path: '/payload/context_ref/uri' });
  });

  it('names the chunks missing at the partition’s end', () => {
    const collector = new ChunkCollector(URI, 10n);
    collector.add(10n, chunk('mine', 0, 4), Buffer.from('a'));
    collector.add(12n, chunk('mine', 2, 4), Buffer.from('c'));
    const error = collector.incomplete(13n);
    expect(error).toMatchObject({ code: 'CONTEXT_NOT_FOUND', details: { uri: URI } });
    expect(error.message).toContain('chunks 1, 3 of 4 are missing');
    expect(new ChunkCollector(URI, 10n).incomplete(13n).code).toBe('CONTEXT_NOT_FOUND');
  });

  it('refuses chunks of one put that disagree on their count as CONTEXT_INTEGRITY_FAILED', () => {
    const collector = new ChunkCollector(URI, 10n);
    collector.add(10n, chunk('mine', 0, 2), Buffer.from('a'));
    expect(thrown(() => collector.add(11n, chunk('mine', 1, 3), Buffer.from('b')))).toMatchObject({
      code: 'CONTEXT_INTEGRITY_FAILED',
      retriable: false,
    });
  });
});
