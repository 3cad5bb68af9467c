import { BatonError } from '@baton/errors';

/** One thing wrong with a routing table or a sender policy: where (JSON Pointer into the file) and what. */
export interface TableProblem {
  path: string;
  message: string;
}

/** The JSON Pointer (RFC 6901) of `segments`, escaping `~` and `/` in keys. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((segment) => '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** How messages name a rule: its index, which always exists, and its id when it has a usable one. */
export function ruleLabel(index: number, id: unknown): string {
  return typeof id === 'string' && id !== '' ? `rule ${index} ("${id}")` : `rule ${index}`;
}

/**
 * The error that stops a service whose configuration file has problems: CONFIG_INVALID carrying
 * every problem in `details.problems`; its message and `path` are the first problem's.
 */
export function problemsError(what: string, source: string, problems: readonly TableProblem[]): BatonError {
  const [first, ...rest] = problems as [TableProblem, ...TableProblem[]];
  const where = first.path === '' ? '' : `${first.path}: `;
  const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
  return new BatonError('CONFIG_INVALID', `invalid ${what} ${source}: ${where}${first.message}${more}`, {
    path: first.path,
    details: { source, problems },
  });
}
