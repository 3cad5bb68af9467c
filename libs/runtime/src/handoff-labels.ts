import { isHandoffType, type HandoffMessage, type Immutable } from '@baton/protocol';

/** The label value of a handoff that states no issue_category. */
export const NO_ISSUE_CATEGORY = 'none';
/** The label value of a type that cannot be read, or of a category beyond the bound. */
export const OTHER_LABEL_VALUE = 'other';
export const UNKNOWN_LABEL_VALUE = 'unknown';

/** The metric labels of a handoff (a type alias, so it is a `Record<string, string>`). */
export type HandoffLabels = {
  handoff_type: string;
  issue_category: string;
};

/** payload.data.issue_category, when the handoff's data states one. */
export function issueCategoryOf(handoff: Pick<Immutable<HandoffMessage>, 'payload'>): string | undefined {
  const { payload } = handoff;
  switch (payload.handoff_type) {
    // Their data declares none. (Not an `in` test: a newer minor's message may carry an undeclared
    // issue_category, of any type.)
    case 'REQUEST_INFORMATION':
    case 'PROVIDE_INFORMATION':
      return undefined;
    default:
      // Every other type's data declares it: a validated string, or absent.
      return payload.data.issue_category;
  }
}

/**
 * Keeps a label whose values come from senders (issue_category is free text) from growing without
 * bound: the first `max` distinct values are kept, later ones and overlong ones read `other`.
 * Each distinct value is a time series of every metric it labels.
 */
export class BoundedLabelValues {
  private readonly seen = new Set<string>();

  constructor(
    private readonly max = 100,
    private readonly maxLength = 64,
  ) {}

  admit(value: string): string {
    if (this.seen.has(value)) return value;
    if (value.length > this.maxLength || this.seen.size >= this.max) return OTHER_LABEL_VALUE;
    this.seen.add(value);
    return value;
  }
}

/**
 * The metric labels of handoffs: handoff_type and issue_category (`none` when absent), with the
 * categories bounded by BoundedLabelValues. Each combination's labels are made once, frozen and
 * shared: every handoff a service reads is labelled.
 */
export class HandoffLabeller {
  private readonly byType = new Map<string, Map<string, Readonly<HandoffLabels>>>();

  constructor(private readonly categories = new BoundedLabelValues()) {}

  labelsOf(handoff: Pick<Immutable<HandoffMessage>, 'payload'>): Readonly<HandoffLabels> {
    const handoffType = handoff.payload.handoff_type;
    const issueCategory = this.categories.admit(issueCategoryOf(handoff) ?? NO_ISSUE_CATEGORY);
    let byCategory = this.byType.get(handoffType);
    if (byCategory === undefined) this.byType.set(handoffType, (byCategory = new Map()));
    let labels = byCategory.get(issueCategory);
    if (labels === undefined) {
      labels = Object.freeze({ handoff_type: handoffType, issue_category: issueCategory });
      byCategory.set(issueCategory, labels);
    }
    return labels;
  }
}

/**
 * The handoff_type label of a consumer event: the decoded message's, else the record's `ce_type`
 * header when it names a known type (a record that failed validation), else `unknown`. Header
 * values are never taken as they are, so a malformed record cannot add a series.
 */
export function handoffTypeLabel(labels: Readonly<Record<string, string>>, ceType: string | undefined): string {
  if (labels.handoff_type !== undefined) return labels.handoff_type;
  return ceType !== undefined && isHandoffType(ceType) ? ceType : UNKNOWN_LABEL_VALUE;
}
