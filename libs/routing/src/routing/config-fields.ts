import { pointer, type TableProblem } from './table-problem.js';

/** Where a value sits in a configuration file, as the segments of its JSON Pointer. */
export type Path = (string | number)[];

/** Records a problem for each key of `object` that is not one of `known`, so a misspelt field is not ignored. */
export function checkFields(
  object: Record<string, unknown>,
  known: readonly string[],
  path: Path,
  owner: string,
  problems: TableProblem[],
): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) {
      problems.push({
        path: pointer(...path, key),
        message: `${owner} has unknown field "${key}"; it accepts ${list(known)}`,
      });
    }
  }
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** `a, b and c`, the way messages list accepted values. */
export function list(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
