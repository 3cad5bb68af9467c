/** 512 KiB: half the broker's default message.max.bytes (1 MiB), leaving room for headers and batch overhead. */
export const DEFAULT_CHUNK_BYTES = 512 * 1024;

/**
 * Cuts `bytes` into pieces of at most `chunkBytes`, without copying. An empty context is one empty
 * chunk, so every stored context has a first record for its uri to name.
 */
export function splitIntoChunks(bytes: Buffer, chunkBytes: number): Buffer[] {
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1) {
    throw new RangeError(`chunkBytes must be a positive integer, got ${chunkBytes}`);
  }
  if (bytes.length === 0) return [bytes];
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += chunkBytes) {
    chunks.push(bytes.subarray(start, start + chunkBytes));
  }
  return chunks;
}
