// The verification thread's own code (see verification-thread.ts): plain JavaScript, so a worker
// starts without a TypeScript loader, in the sources and in the bundled image alike.
import { Buffer } from 'node:buffer';
import { parentPort } from 'node:worker_threads';
import sodium from 'sodium-native';

const SIGNATURE = 64;
const PUBLIC_KEY = 32;

// A batch is one buffer of entries [u32 length][64-byte signature][32-byte public key][length bytes].
parentPort.on('message', ({ id, count, packed }) => {
  const bytes = Buffer.from(packed);
  const results = new Uint8Array(count);
  let at = 0;
  for (let index = 0; index < count; index += 1) {
    const length = bytes.readUInt32LE(at);
    const signature = bytes.subarray(at + 4, at + 4 + SIGNATURE);
    const publicKey = bytes.subarray(at + 4 + SIGNATURE, at + 4 + SIGNATURE + PUBLIC_KEY);
    const start = at + 4 + SIGNATURE + PUBLIC_KEY;
    results[index] = sodium.crypto_sign_verify_detached(signature, bytes.subarray(start, start + length), publicKey)
      ? 1
      : 0;
    at = start + length;
  }
  parentPort.postMessage({ id, results }, [results.buffer]);
});
