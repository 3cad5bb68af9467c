import { describe, expect, it } from 'vitest';
import { frameWireFormat, readWireFormat } from './confluent-wire-format.js';

describe('the Confluent wire format', () => {
  it('frames a body behind magic byte 0 and a big-endian schema id', () => {
    const framed = frameWireFormat(258, Buffer.from([7, 8]));
    expect([...framed]).toEqual([0, 0, 0, 1, 2, 7, 8]);
    const frame = readWireFormat(framed);
    expect(frame.schemaId).toBe(258);
    expect([...frame.body]).toEqual([7, 8]);
  });

  it('refuses bytes too short to hold the header', () => {
    expect(() => readWireFormat(Buffer.from([0, 0, 1]))).toThrowError(
      expect.objectContaining({ code: 'WIRE_FORMAT_INVALID', retriable: false, details: { length: 3 } }),
    );
  });

  it('refuses a value that does not start with the magic byte', () => {
    expect(() => readWireFormat(Buffer.from('{"json":"not avro"}'))).toThrowError(
      expect.objectContaining({ code: 'WIRE_FORMAT_INVALID', details: { magicByte: 123 } }),
    );
  });
});
