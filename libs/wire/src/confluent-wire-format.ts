import { BatonError } from '@baton/errors';

/** Confluent wire format: magic byte 0, the schema id as a big-endian int32, then the Avro body. */
export const MAGIC_BYTE = 0;
export const WIRE_HEADER_BYTES = 5;

export interface WireFrame {
  schemaId: number;
  body: Buffer;
}

/** Writes the wire header (magic byte, schema id) into the first WIRE_HEADER_BYTES of `target`. */
export function writeWireHeader(target: Buffer, schemaId: number): void {
  target.writeUInt8(MAGIC_BYTE, 0);
  target.writeInt32BE(schemaId, 1);
}

export function frameWireFormat(schemaId: number, body: Buffer): Buffer {
  const framed = Buffer.allocUnsafe(WIRE_HEADER_BYTES + body.length);
  writeWireHeader(framed, schemaId);
  body.copy(framed, WIRE_HEADER_BYTES);
  return framed;
}

/** Splits a record value into schema id and body; throws WIRE_FORMAT_INVALID when it is not framed. */
export function readWireFormat(bytes: Buffer): WireFrame {
  if (bytes.length < WIRE_HEADER_BYTES) {
    throw new BatonError(
      'WIRE_FORMAT_INVALID',
      `record value has ${bytes.length} bytes; the Confluent wire format needs at least ${WIRE_HEADER_BYTES}`,
      { details: { length: bytes.length } },
    );
  }
  const magic = bytes.readUInt8(0);
  if (magic !== MAGIC_BYTE) {
    throw new BatonError(
      'WIRE_FORMAT_INVALID',
      `record value starts with byte ${magic}, not the magic byte ${MAGIC_BYTE}`,
      {
        details: { magicByte: magic },
      },
    );
  }
  return { schemaId: bytes.readInt32BE(1), body: bytes.subarray(WIRE_HEADER_BYTES) };
}
