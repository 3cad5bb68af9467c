import avro from 'avsc';

/**
 * `baton-json`: a string that carries a JSON value. Used for payload.data and
 * instructions.constraints, whose shapes the JSON Schemas own (see schemas/avro/handoff_message.avsc).
 */
class JsonLogicalType extends avro.types.LogicalType {
  protected override _fromValue(text: string): unknown {
    return JSON.parse(text);
  }

  protected override _toValue(value: unknown): string | undefined {
    // undefined tells avsc this value does not belong to this branch of a union.
    return value === undefined || value === null ? undefined : JSON.stringify(value);
  }

  protected override _resolve(type: avro.Type): ((text: string) => unknown) | undefined {
    if (type instanceof JsonLogicalType || avro.Type.isType(type, 'string')) return (text) => this._fromValue(text);
    return undefined;
  }
}

const EXTRA_FIELDS = 'extra_fields_json';

type RecordLike = Record<string, unknown>;

interface RecordTypeLike {
  name: string;
  fields: { name: string }[];
}

/**
 * `baton-open-record`: maps a JSON object to an Avro record and back without losing anything.
 * Absent optional fields are written as null and read back as absent; fields the record does not
 * name go into `extra_fields_json` and come back as fields. Without it a round trip would add
 * nulls and drop the open fields that the protocol allows.
 */
class OpenRecordLogicalType extends avro.types.LogicalType {
  /** The record's own fields, extra_fields_json aside: read by name, not by Object.entries (see _fromValue). */
  private readonly fieldNames: readonly string[];
  private readonly knownFields: ReadonlySet<string>;

  constructor(schema: avro.Schema, opts?: unknown) {
    super(schema, opts);
    const record = this.underlyingType as unknown as RecordTypeLike;
    this.fieldNames = record.fields.map((field) => field.name).filter((name) => name !== EXTRA_FIELDS);
    this.knownFields = new Set(this.fieldNames);
    // A logical type is unnamed to avsc, but the registry client refuses to register an unnamed
    // top-level type; this one is named by its record.
    (this as { name?: string }).name = record.name;
  }

  // Every record of every message a service reads or writes passes through these two, so they walk
  // the schema's field names and for...in rather than Object.entries, which allocated an array per
  // field: the largest single source of the router's garbage (heap sampling, 20k handoffs).
  protected override _fromValue(record: RecordLike): RecordLike {
    const value: RecordLike = {};
    // Named fields first, then the extras that do not clash with them: a named field always wins.
    for (const name of this.fieldNames) {
      const field = record[name];
      if (field !== null && field !== undefined) value[name] = field;
    }
    const extra = record[EXTRA_FIELDS] as RecordLike | null | undefined;
    if (extra) {
      for (const name in extra)
        if (Object.hasOwn(extra, name) && !Object.hasOwn(value, name)) value[name] = extra[name];
    }
    return value;
  }

  protected override _toValue(value: unknown): RecordLike | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const fields = value as RecordLike;
    const record: RecordLike = {};
    for (const name of this.fieldNames) record[name] = fields[name] ?? null;
    let extra: RecordLike | null = null;
    for (const name in fields) {
      if (!Object.hasOwn(fields, name) || this.knownFields.has(name)) continue;
      const field = fields[name];
      if (field !== undefined) (extra ??= {})[name] = field;
    }
    record[EXTRA_FIELDS] = extra;
    return record;
  }

  protected override _resolve(type: avro.Type): ((record: RecordLike) => RecordLike) | undefined {
    const resolver = this.underlyingType.createResolver(
      type instanceof OpenRecordLogicalType ? type.underlyingType : type,
    );
    return resolver ? (record) => this._fromValue(record) : undefined;
  }
}

/** The logical types every Baton Avro schema may use; pass them wherever avsc parses a schema. */
export const BATON_LOGICAL_TYPES = {
  'baton-json': JsonLogicalType,
  'baton-open-record': OpenRecordLogicalType,
};
