import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_BYTES, splitIntoChunks } from './context-chunks.js';

describe('splitting a context into chunks', () => {
  it('cuts at chunkBytes, the last chunk holding the rest, and joins back to the same bytes', () => {
    const bytes = Buffer.from(Array.from({ length: 10 }, (_, index) => index));
    const chunks = splitIntoChunks(bytes, 4);
    expect(chunks.map((chunk) => [...chunk])).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('makes one chunk of bytes that fit, and of exactly chunkBytes', () => {
    expect(splitIntoChunks(Buffer.alloc(3), 4)).toHaveLength(1);
    expect(splitIntoChunks(Buffer.alloc(4), 4)).toHaveLength(1);
    expect(splitIntoChunks(Buffer.alloc(5), 4)).toHaveLength(2);
  });

  it('makes one empty chunk of an empty context, so its uri has a record to name', () => {
    const chunks = splitIntoChunks(Buffer.alloc(0), 4);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.length).toBe(0);
  });

  it('cuts 2.5 MiB into five chunks of the default 512 KiB', () => {
    const chunks = splitIntoChunks(Buffer.alloc(2.5 * 1024 * 1024), DEFAULT_CHUNK_BYTES);
    expect(chunks.map((chunk) => chunk.length)).toEqual(Array(5).fill(DEFAULT_CHUNK_BYTES));
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses chunkBytes %s', (chunkBytes) => {
    expect(() => splitIntoChunks(Buffer.alloc(1), chunkBytes)).toThrow(RangeError);
  });
});
