import { randomFillSync } from 'node:crypto';

/** Random bytes for this many ids, drawn from the system's generator at once, as Node's randomUUID does. */
const IDS_PER_DRAW = 256;

const pool = Buffer.alloc(16 * IDS_PER_DRAW);
let next = pool.length;
/** An id's 36 characters as ASCII, written here and read out as one string. */
const text = Buffer.alloc(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** Where each of the 16 bytes goes among the 36 characters (the dashes sit at 8, 13, 18 and 23). */
const BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
text[8] = text[13] = text[18] = text[23] = 0x2d;

/**
 * A random (version 4) UUID in its usual 36-character form, like crypto.randomUUID(), which it
 * replaces where an id lives until a transaction commits. Node builds randomUUID's string by
 * concatenation, so each one is a tree of about twenty strings, some 490 bytes of heap, until
 * something flattens it; this one is a single string of 56 bytes. A service makes one per outcome
 * event and holds it until the event's transaction commits, through every young-generation
 * collection meanwhile, which copies what is still alive.
 */
export function randomId(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  pool[next + 6] = ((pool[next + 6] as number) & 0x0f) | 0x40;
  pool[next + 8] = ((pool[next + 8] as number) & 0x3f) | 0x80;
  for (let byte = 0; byte < 16; byte += 1) {
    const value = pool[next + byte] as number;
    const at = BYTE_AT[byte] as number;
    text[at] = HEX[value >> 4] as number;
    text[at + 1] = HEX[value & 0x0f] as number;
  }
  next += 16;
  return text.toString('latin1', 0, 36);
}
