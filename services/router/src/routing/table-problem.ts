/** One thing wrong with a routing table: where (JSON Pointer into the table) and what. */
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
