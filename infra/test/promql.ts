/** PromQL words that are not metric names: aggregations, keywords and binary operators. */
const KEYWORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'group',
  'stddev',
  'stdvar',
  'count',
  'count_values',
  'bottomk',
  'topk',
  'quantile',
  'limitk',
  'limit_ratio',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'atan2',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression selects. Strings, label matchers (`{...}`), ranges
 * (`[...]`) and label lists (`by (...)`, `on (...)`, ...) are removed first; of the words left, those
 * called as functions and the keywords are not metric names. Grafana variables (`$x`) only appear
 * in the removed parts.
 */
export function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const word = match[0];
    const rest = stripped.slice(match.index + word.length);
    if (/^\s*\(/.test(rest) || KEYWORDS.has(word.toLowerCase())) continue;
    // An exponent such as the `e3` of 1e3 is part of a number.
    if (match.index > 0 && /[0-9.]/.test(stripped[match.index - 1]!)) continue;
    names.add(word);
  }
  return [...names].sort();
}

/** The series names a family exposes: a histogram's `_bucket`, `_sum` and `_count` besides its own. */
export function familyOf(metric: string, histograms: readonly string[]): string {
  for (const histogram of histograms) {
    if ([`${histogram}_bucket`, `${histogram}_sum`, `${histogram}_count`].includes(metric)) return histogram;
  }
  return metric;
}
