/** A value of a query parameter of the gateway's API; lists repeat the parameter. */
export type QueryValue = string | number | boolean | readonly string[] | undefined;

/** `?a=1&header=x&header=y` of the values that are given; `''` when none is. */
export function queryString(query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
