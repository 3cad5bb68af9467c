import fc from 'fast-check';

/**
 * The malformations of test/fuzz-inputs.test.ts: pure functions of what fast-check drew, so a seed
 * gives the same inputs every run.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value (leaf or not) in `value`, the root excluded. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const paths: (string | number)[][] = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => paths.push([...prefix, index], ...pathsOf(item, [...prefix, index])));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) paths.push([...prefix, key], ...pathsOf(item, [...prefix, key]));
  }
  return paths;
}

/** One change to a valid message: which, where (`pick` indexes its paths) and with what. */
export interface JsonMutation {
  action: 'drop' | 'retype' | 'huge' | 'nest' | 'duplicate' | 'enum' | 'empty';
  pick: number;
  replacement: Json;
  /** KiB of a huge string. */
  kib: number;
  /** Levels of a deep nest. */
  depth: number;
}

export const jsonMutation: fc.Arbitrary<JsonMutation> = fc.record({
  action: fc.constantFrom('drop', 'retype', 'huge', 'nest', 'duplicate', 'enum', 'empty'),
  pick: fc.nat(),
  replacement: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  // Within the gateway's 1 MiB body and Kafka's 1 MB record: a larger body is its own input.
  kib: fc.integer({ min: 1, max: 256 }),
  // Past the few thousand levels where JSON.stringify and any recursive walk run out of stack.
  depth: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1_000, max: 20_000 })),
});

/**
 * The JSON text of `valid` with `mutation` applied at the path it picks. A duplicated field is
 * written into the text, since an object cannot hold a key twice.
 */
export function applyJsonMutation(valid: Json, mutation: JsonMutation): string {
  const root = structuredClone(valid);
  const paths = pathsOf(root);
  const path = paths[mutation.pick % paths.length] as (string | number)[];
  let parent: any = root;
  for (const step of path.slice(0, -1)) parent = parent[step];
  const key = path[path.length - 1] as string | number;
  switch (mutation.action) {
    case 'drop':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 'retype':
      parent[key] = mutation.replacement;
      break;
    case 'huge':
      parent[key] = 'x'.repeat(1_024 * mutation.kib);
      break;
    case 'nest':
      // Written as text: JSON.stringify itself overflows the stack at a few thousand levels.
      return replaceValue(root, parent, key, nestedText(mutation.depth));
    case 'enum':
      // A value outside an enum where the field has one (priority, handoff_type); elsewhere a plain string.
      parent[key] = `NOT_A_${String(key).toUpperCase()}`;
      break;
    case 'empty':
      parent[key] = typeof parent[key] === 'string' ? '' : Array.isArray(parent[key]) ? [] : {};
      break;
    case 'duplicate': {
      // The key once more, with another value, just before its first place in the text; JSON.parse
      // keeps the last one.
      // An array item has no key to repeat: metadata is repeated at the top instead.
      const text = JSON.stringify(root);
      const name = JSON.stringify(String(key));
      const at = text.indexOf(`${name}:`);
      if (at < 0 || Array.isArray(parent))
        return `{"metadata":${JSON.stringify(mutation.replacement)},${text.slice(1)}`;
      return `${text.slice(0, at)}${name}:${JSON.stringify(mutation.replacement)},${text.slice(at)}`;
    }
  }
  return JSON.stringify(root);
}

/** `depth` levels of alternating arrays and objects around 0, as JSON text. */
export function nestedText(depth: number): string {
  let open = '';
  let close = '';
  for (let level = 0; level < depth; level += 1) {
    open += level % 2 === 0 ? '{"n":' : '[';
    close = (level % 2 === 0 ? '}' : ']') + close;
  }
  return `${open}0${close}`;
}

/** The JSON text of `root` with `parent[key]` replaced by the JSON text `text`. */
function replaceValue(root: Json, parent: any, key: string | number, text: string): string {
  const marker = `\u0000fuzz-marker\u0000`;
  parent[key] = marker;
  return JSON.stringify(root).replace(JSON.stringify(marker), () => text);
}

/** `bytes` with the bits at `positions` (modulo its length in bits) flipped. */
export function flipBits(bytes: Buffer, positions: readonly number[]): Buffer {
  const copy = Buffer.from(bytes);
  for (const position of positions) {
    const bit = position % (copy.length * 8);
    copy[bit >> 3] = (copy[bit >> 3] as number) ^ (1 << (bit & 7));
  }
  return copy;
}

/**
 * Byte sequences that are not UTF-8: a lone continuation byte, an overlong '/', an encoded
 * surrogate, bytes UTF-8 never uses, a sequence cut short.
 */
export const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xe2, 0x82]),
];

/** `bytes` with `bad` over its bytes from the first occurrence of `text`: same length, so still framed. */
export function overwriteText(bytes: Buffer, text: string, bad: Buffer): Buffer {
  const at = bytes.indexOf(text);
  if (at < 0) throw new Error(`"${text}" is not in the bytes`);
  const copy = Buffer.from(bytes);
  bad.copy(copy, at, 0, Math.min(bad.length, Buffer.byteLength(text)));
  return copy;
}

/** `bytes` with `bad` inserted just after the first occurrence of `text`. */
export function insertAfter(bytes: Buffer, text: string, bad: Buffer): Buffer {
  const at = bytes.indexOf(text);
  if (at < 0) throw new Error(`"${text}" is not in the bytes`);
  const end = at + Buffer.byteLength(text);
  return Buffer.concat([bytes.subarray(0, end), bad, bytes.subarray(end)]);
}
