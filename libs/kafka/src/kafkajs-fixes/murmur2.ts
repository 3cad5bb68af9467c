import { replaceBeforeKafkajsLoads, kafkajsModuleExports, type ModuleReplacement } from './module-replacement.js';

/**
 * kafkajs 2.2.4 hashes a record's key for its default partitioner (murmur2, as the Java client
 * does) in 64-bit Long arithmetic over BigInt, and never truncates the running hash back to 64
 * bits: it grows by 32 bits for every 4 bytes of key, so hashing is quadratic in the key's length.
 * A 250 KB key took six seconds of one core, a key near Kafka's 1 MB limit minutes, and all that
 * time the process's event loop is blocked: a gateway publishing a handoff with a huge task_id (the
 * key) stopped answering every other request, a router dispatching one stopped consuming. The
 * replacement is the Java client's 32-bit murmur2 in 32-bit arithmetic (Math.imul), which gives the
 * very hash kafkajs gives, since only the low 32 bits of kafkajs's ever reach its result, in linear
 * time. Found by the fuzz test (test/fuzz-inputs.test.ts).
 *
 * kafkajs's default partitioner takes the module when kafkajs loads, so this module is imported by
 * @baton/kafka before kafkajs itself, as produce-encoding.ts is. Tied to the pinned version like the
 * other fixes.
 */

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** The Java client's murmur2 of `key` (org.apache.kafka.common.utils.Utils.murmur2), as a signed 32-bit int. */
export function murmur2(key: Buffer | string): number {
  if (Buffer.isBuffer(key)) return murmur2Of(key, key.length);
  const text = String(key);
  const length = asciiInto(text);
  return length < 0 ? murmur2Of(Buffer.from(text), Buffer.byteLength(text)) : murmur2Of(asciiScratch, length);
}

/**
 * Where a short ASCII key is written to be hashed: its bytes are its character codes. A Baton
 * record's key is its task_id, hashed for every record produced, and a Buffer made of it for that
 * was an allocation and a call into C++ each time.
 */
const asciiScratch = Buffer.alloc(256);

/** Writes `text` into asciiScratch and returns its length, or -1 when it is not short ASCII. */
function asciiInto(text: string): number {
  const { length } = text;
  if (length > asciiScratch.length) return -1;
  for (let at = 0; at < length; at += 1) {
    const code = text.charCodeAt(at);
    if (code > 0x7f) return -1;
    asciiScratch[at] = code;
  }
  return length;
}

/** murmur2 of the first `length` bytes of `data`. */
function murmur2Of(data: Buffer, length: number): number {
  let h = SEED ^ length;
  const tail = length & ~3;
  for (let at = 0; at < tail; at += 4) {
    let k = (data[at] as number) | ((data[at + 1] as number) << 8);
    k |= ((data[at + 2] as number) << 16) | ((data[at + 3] as number) << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The last one to three bytes, as Java's switch falls through its cases.
  const rest = length & 3;
  if (rest === 3) h ^= (data[tail + 2] as number) << 16;
  if (rest >= 2) h ^= (data[tail + 1] as number) << 8;
  if (rest >= 1) h = Math.imul(h ^ (data[tail] as number), M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h;
}

const MURMUR2_MODULE = 'kafkajs/src/producer/partitioners/default/murmur2.js';
/** The module that takes it: the default partitioner, loaded with kafkajs. */
const TAKERS = ['kafkajs/src/producer/partitioners/default/index.js'];

let outcome: ModuleReplacement | undefined;

/** Puts murmur2 in kafkajs's place, before kafkajs loads. Idempotent. */
export function patchMurmur2(): ModuleReplacement {
  outcome ??= replaceBeforeKafkajsLoads('murmur2', TAKERS, () => ({ [MURMUR2_MODULE]: murmur2 }));
  return outcome;
}

/** What kafkajs's default partitioner gets for its hash now (tests compare it with the replacement). */
export function kafkajsMurmur2(): unknown {
  return kafkajsModuleExports(MURMUR2_MODULE);
}

patchMurmur2();
