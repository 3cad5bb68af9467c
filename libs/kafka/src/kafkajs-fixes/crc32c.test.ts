import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { crc32c } from './crc32c.js';
import { kafkajsOriginal } from './kafkajs-original.test-helper.js';

const kafkajsCrc32C = kafkajsOriginal<(buffer: Buffer) => number>('kafkajs/src/protocol/recordBatch/crc32C/crc32C.js');

describe('crc32c', () => {
  it('gives the standard check value of "123456789" (0xE3069283)', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(0))).toBe(0);
  });

  it("gives kafkajs's checksum on every length from 0 to 70 and at every offset into a buffer", () => {
    const bytes = randomBytes(4_096 + 7);
    for (let length = 0; length <= 70; length += 1) {
      for (let start = 0; start < 8; start += 1) {
        const slice = bytes.subarray(start, start + length);
        expect(crc32c(slice)).toBe(kafkajsCrc32C(slice));
      }
    }
    expect(crc32c(bytes)).toBe(kafkajsCrc32C(bytes));
  });
});
