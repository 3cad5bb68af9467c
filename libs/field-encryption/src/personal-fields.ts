import { isEncryptedValue } from '@baton/protocol';
import { isRecord, mapAtPath, mapFieldsWhere, pointerTo, type Visit } from './json-walk.js';
import { collectMarkedPaths, type FieldPath, type MarkedPaths } from './marked-paths.js';

/**
 * The kinds of record that carry personal data: handoffs, lifecycle messages, staged contexts, and
 * a negotiated handoff's context stored by reference (the context_data alone, see @baton/negotiation).
 */
export type PersonalMessageKind = 'handoff' | 'lifecycle' | 'staged' | 'context';

/** The customer_info member that stays clear: it identifies the customer to systems without naming them. */
const CLEAR_CUSTOMER_FIELD = 'user_id';

/**
 * Where a negotiated handoff's context carries the whole handoff (context_data.handoff, see
 * @baton/negotiation): its personal fields are those of a handoff.
 */
const CARRIED_HANDOFF: Record<Exclude<PersonalMessageKind, 'handoff'>, readonly string[]> = {
  lifecycle: ['payload', 'context_data', 'handoff'],
  staged: ['context', 'context_data', 'handoff'],
  context: ['handoff'],
};

/** Where a TaskContextTransfer's payload holds the context a stored one is. */
const CONTEXT_DATA = 'context_data';

function under(prefix: FieldPath, paths: readonly FieldPath[] | undefined): FieldPath[] {
  return (paths ?? []).map((path) => [...prefix, ...path]);
}

/**
 * The personal fields of a message: every member but user_id of any `customer_info` object at any
 * depth (whatever members a newer minor adds), and every field the JSON Schemas mark
 * `x-baton-personal-data`, for the message's own type (a handoff's handoff_type, a lifecycle
 * message's message_type), including the handoff a negotiated context carries.
 */
export class PersonalFields {
  constructor(private readonly marked: MarkedPaths = collectMarkedPaths()) {}

  /** `message` with `visit` applied to each of its personal fields; `message` itself is left as it was. */
  map(kind: PersonalMessageKind, message: unknown, visit: Visit): unknown {
    let mapped = message;
    for (const path of this.pathsOf(kind, message)) mapped = mapAtPath(mapped, path, visit);
    if (kind !== 'handoff') {
      const carried = CARRIED_HANDOFF[kind];
      for (const path of this.pathsOf('handoff', valueAt(mapped, carried))) {
        mapped = mapAtPath(mapped, [...carried, ...path], visit);
      }
    }
    return mapFieldsWhere(
      mapped,
      (key, field) => key === 'customer_info' && typeof field === 'object' && field !== null,
      (customer, pointer) => mapCustomerMembers(customer, visit, pointer),
    );
  }

  /**
   * The JSON Pointers of `message`'s personal fields that hold a value in clear: neither encrypted
   * nor absent (null counts as absent). Empty when every personal field is encrypted or missing.
   */
  inClear(kind: PersonalMessageKind, message: unknown): string[] {
    // A set: a customer_info member the schema marks too is visited twice.
    const pointers = new Set<string>();
    this.map(kind, message, (value, pointer) => {
      if (value !== undefined && value !== null && !isEncryptedValue(value)) pointers.add(pointer);
      return value;
    });
    return [...pointers];
  }

  private pathsOf(kind: PersonalMessageKind, message: unknown): FieldPath[] {
    if (!isRecord(message)) return [];
    switch (kind) {
      case 'handoff': {
        const type = isRecord(message.payload) ? message.payload.handoff_type : undefined;
        const data = typeof type === 'string' ? this.marked.handoffData[type as keyof MarkedPaths['handoffData']] : [];
        return [...this.marked.handoff, ...under(['payload', 'data'], data)];
      }
      case 'lifecycle': {
        const type = message.message_type;
        if (typeof type !== 'string') return [];
        return under(['payload'], this.marked.lifecyclePayload[type as keyof MarkedPaths['lifecyclePayload']]);
      }
      case 'staged':
        return under(['context'], this.marked.lifecyclePayload.TaskContextTransfer);
      case 'context':
        // The fields the transfer's schema marks under context_data, from the stored context's root.
        return (this.marked.lifecyclePayload.TaskContextTransfer ?? [])
          .filter(([first]) => first === CONTEXT_DATA)
          .map(([, ...path]) => path);
    }
  }
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let found = value;
  for (const segment of path) found = isRecord(found) ? found[segment] : undefined;
  return found;
}

/** A customer_info object (or a list of them) with every member but user_id visited. */
function mapCustomerMembers(customer: unknown, visit: Visit, pointer: string): unknown {
  if (Array.isArray(customer)) {
    let copy: unknown[] | undefined;
    customer.forEach((item: unknown, at) => {
      const next = mapCustomerMembers(item, visit, pointerTo(pointer, at));
      if (next !== item) (copy ??= [...customer])[at] = next;
    });
    return copy ?? customer;
  }
  if (!isRecord(customer)) return customer;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(customer)) {
    if (key === CLEAR_CUSTOMER_FIELD) continue;
    const field = customer[key];
    const next = visit(field, pointerTo(pointer, key));
    if (next !== field) (copy ??= { ...customer })[key] = next;
  }
  return copy ?? customer;
}
