/** What replaces a value found at `pointer` (the JSON Pointer within the message); the same value leaves it. */
export type Visit = (value: unknown, pointer: string) => unknown;

/** One step of a path: a field name, or every item of an array. */
export const EVERY_ITEM = Symbol('every item');
export type PathSegment = string | typeof EVERY_ITEM;

/** Deeper than any message Baton writes; bounds the walk over a hostile one. */
const MAX_DEPTH = 64;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

export function pointerTo(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/*
 * Every walk is copy-on-write: the result shares each branch `visit` left alone, and the value
 * walked is never changed (messages are frozen). A changed object is copied with its own
 * enumerable fields only, so a decoder's record prototype is left behind as parsedCopy does.
 */

/** `value` with `visit` applied to what `path` reaches from it (absent fields are not visited). */
export function mapAtPath(
  value: unknown,
  path: readonly PathSegment[],
  visit: Visit,
  pointer = '',
  index = 0,
): unknown {
  if (index === path.length) return visit(value, pointer);
  const segment = path[index]!;
  if (segment === EVERY_ITEM) {
    if (!Array.isArray(value)) return value;
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, at) => {
      const next = mapAtPath(item, path, visit, pointerTo(pointer, at), index + 1);
      if (next !== item) (copy ??= [...value])[at] = next;
    });
    return copy ?? value;
  }
  if (!isRecord(value) || !Object.hasOwn(value, segment)) return value;
  const field = value[segment];
  const next = mapAtPath(field, path, visit, pointerTo(pointer, segment), index + 1);
  return next === field ? value : { ...value, [segment]: next };
}

/** `value` with `visit` applied to every object field (at any depth) for which `pick` says yes, instead of descending into it. */
export function mapFieldsWhere(
  value: unknown,
  pick: (key: string, field: unknown) => boolean,
  visit: Visit,
  pointer = '',
  depth = 0,
): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, at) => {
      const next = mapFieldsWhere(item, pick, visit, pointerTo(pointer, at), depth + 1);
      if (next !== item) (copy ??= [...value])[at] = next;
    });
    return copy ?? value;
  }
  if (!isRecord(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const field = value[key];
    const at = pointerTo(pointer, key);
    const next = pick(key, field) ? visit(field, at) : mapFieldsWhere(field, pick, visit, at, depth + 1);
    if (next !== field) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
}

/** `value` with `visit` applied to every string (at any depth) for which `pick` says yes. */
export function mapStringsWhere(
  value: unknown,
  pick: (text: string) => boolean,
  visit: Visit,
  pointer = '',
  depth = 0,
): unknown {
  if (typeof value === 'string') return pick(value) ? visit(value, pointer) : value;
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, at) => {
      const next = mapStringsWhere(item, pick, visit, pointerTo(pointer, at), depth + 1);
      if (next !== item) (copy ??= [...value])[at] = next;
    });
    return copy ?? value;
  }
  if (!isRecord(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const field = value[key];
    const next = mapStringsWhere(field, pick, visit, pointerTo(pointer, key), depth + 1);
    if (next !== field) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
}
