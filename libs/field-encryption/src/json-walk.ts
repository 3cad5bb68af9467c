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

/** `items` with `map` applied to each item; the same array when no item changed. */
function mapItems(items: readonly unknown[], pointer: string, map: Visit): unknown[] {
  let copy: unknown[] | undefined;
  items.forEach((item: unknown, at) => {
    const next = map(item, pointerTo(pointer, at));
    if (next !== item) (copy ??= [...items])[at] = next;
  });
  return copy ?? (items as unknown[]);
}

/** `record` with `map` applied to each field; the same record when no field changed. */
function mapFields(
  record: Record<string, unknown>,
  pointer: string,
  map: (field: unknown, pointer: string, key: string) => unknown,
): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const field = record[key];
    const next = map(field, pointerTo(pointer, key), key);
    if (next !== field) (copy ??= { ...record })[key] = next;
  }
  return copy ?? record;
}

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
    return Array.isArray(value)
      ? mapItems(value, pointer, (item, at) => mapAtPath(item, path, visit, at, index + 1))
      : value;
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
    return mapItems(value, pointer, (item, at) => mapFieldsWhere(item, pick, visit, at, depth + 1));
  }
  if (!isRecord(value)) return value;
  return mapFields(value, pointer, (field, at, key) =>
    pick(key, field) ? visit(field, at) : mapFieldsWhere(field, pick, visit, at, depth + 1),
  );
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
  const walk = (child: unknown, at: string) => mapStringsWhere(child, pick, visit, at, depth + 1);
  if (Array.isArray(value)) return mapItems(value, pointer, walk);
  return isRecord(value) ? mapFields(value, pointer, walk) : value;
}
