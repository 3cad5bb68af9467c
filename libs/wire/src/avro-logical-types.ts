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
  private readonly knownFields: ReadonlySet<string>;

  constructor(schema: avro.Schema, opts?: unknown) {
    super(schema, opts);
    const record = this.underlyingType as unknown as RecordTypeLike;
    this.knownFields = new Set(record.fields.map((field) => field.name).filter((name) => name !== EXTRA_FIELDS));
    // A logical type is unnamed to avsc, but the registry client refuses to register an unnamed
    // top-level type; this one is named by its record.
    (this as { name?: string }).name = record.name;
  }

  protected override _fromValue(record: RecordLike): RecordLike {
    const value: RecordLike = {};
    const extra = record[EXTRA_FIELDS] as RecordLike | null | undefined;
    // Named fields first, then the extras that do not clash with them: a named field always wins.
    for (const [name, field] of Object.entries(record)) {
      if (name !== EXTRA_FIELDS && field !== null && field !== undefined) value[name] = field;
    }
    if (extra) {
      for (const [name, field] of Object.entries(extra)) if (!(name in value)) value[name] = field;
    }
    return value;
  }

  protected override _toValue(value: unknown): RecordLike | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const record: RecordLike = {};
    const extra: RecordLike = {};
    for (const name of this.knownFields) record[name] = (value as RecordLike)[name] ?? null;
    for (const [name, field] of Object.entries(value)) {
      if (!this.knownFields.has(name) && field !== undefined) extra[name] = field;
    }
    record[EXTRA_FIELDS] = Object.keys(extra).length > 0 ? extra : null;
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
