import { MATCH_FIELDS, type RuleMatch } from './routing-table.js';

/**
 * True when every message `later` matches is also matched by `earlier`, so a rule placed after
 * `earlier` can never be chosen: for each field, `earlier` is unconstrained or accepts all that
 * `later` accepts. Rules that are only covered by several earlier rules together are not caught.
 */
export function subsumes(earlier: RuleMatch, later: RuleMatch): boolean {
  return MATCH_FIELDS.every((field) => {
    const wide = earlier[field];
    const narrow = later[field];
    if (wide === undefined) return true;
    if (narrow === undefined) return false;
    for (const value of narrow) if (!wide.has(value)) return false;
    return true;
  });
}
