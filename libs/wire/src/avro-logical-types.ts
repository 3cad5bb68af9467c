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
 * The two conversions of an open record, written out for its fields: one property read or write per
 * field by its name, the shape of the record built in one object literal, where a loop over the
 * names made a keyed store per field into an object whose shape grew with each.
 */
interface OpenRecordConversions {
  /** The Avro record's fields, read back: absent for null, extras unpacked where they do not clash. */
  fromRecord(record: RecordLike): RecordLike;
  /** The record to write, every named field (null when absent), without the extras. */
  toRecord(value: RecordLike): RecordLike;
}

function openRecordConversions(fieldNames: readonly string[]): OpenRecordConversions {
  // Field names are Avro names ([A-Za-z_][A-Za-z0-9_]*), quoted all the same.
  const keys = fieldNames.map((name) => JSON.stringify(name));
  const fromRecord = new Function(
    'record',
    [
      'const value = {};',
      ...keys.map(
        (key) => `if (record[${key}] !== null && record[${key}] !== undefined) value[${key}] = record[${key}];`,
      ),
      'return value;',
    ].join('\n'),
  ) as (record: RecordLike) => RecordLike;
  const toRecord = new Function(
    'value',
    `return { ${[...keys.map((key) => `${key}: value[${key}] ?? null`), `${JSON.stringify(EXTRA_FIELDS)}: null`].join(', ')} };`,
  ) as (value: RecordLike) => RecordLike;
  return { fromRecord, toRecord };
}

/**
 * `baton-open-record`: maps a JSON object to an Avro record and back without losing anything.
 * Absent optional fields are written as null and read back as absent; fields the record does not
 * name go into `extra_fields_json` and come back as fields. Without it a round trip would add
 * nulls and drop the open fields that the protocol allows.
 */
class OpenRecordLogicalType extends avro.types.LogicalType {
  private readonly knownFields: ReadonlySet<string>;
  private readonly conversions: OpenRecordConversions;

  constructor(schema: avro.Schema, opts?: unknown) {
    super(schema, opts);
    const record = this.underlyingType as unknown as RecordTypeLike;
    const fieldNames = record.fields.map((field) => field.name).filter((name) => name !== EXTRA_FIELDS);
    this.knownFields = new Set(fieldNames);
    this.conversions = openRecordConversions(fieldNames);
    // A logical type is unnamed to avsc, but the registry client refuses to register an unnamed
    // top-level type; this one is named by its record.
    (this as { name?: string }).name = record.name;
  }

  // Every record of every message a service reads or writes passes through these two.
  protected override _fromValue(record: RecordLike): RecordLike {
    // Named fields first, then the extras that do not clash with them: a named field always wins.
    const value = this.conversions.fromRecord(record);
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
    const record = this.conversions.toRecord(fields);
    let extra: RecordLike | null = null;
    for (const name in fields) {
      if (!Object.hasOwn(fields, name) || this.knownFields.has(name)) continue;
      const field = fields[name];
      if (field !== undefined) (extra ??= {})[name] = field;
    }
    if (extra !== null) record[EXTRA_FIELDS] = extra;
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
