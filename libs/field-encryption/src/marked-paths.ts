import {
  PERSONAL_DATA_KEYWORD,
  loadHandoffSchemas,
  loadLifecycleSchemas,
  type HandoffType,
  type JsonSchema,
  type LifecycleMessageType,
} from '@baton/protocol';
import { EVERY_ITEM, isRecord, type PathSegment } from './json-walk.js';

export type FieldPath = readonly PathSegment[];

/** The fields the JSON Schemas mark `x-baton-personal-data: true`, each message kind from its own root. */
export interface MarkedPaths {
  /** From the handoff message's root (base_handoff_message.schema.json). */
  handoff: FieldPath[];
  /** From payload.data, per handoff_type (data/<type>_data.schema.json). */
  handoffData: Partial<Record<HandoffType, FieldPath[]>>;
  /** From a lifecycle message's payload, per message_type (lifecycle/<type>_payload.schema.json). */
  lifecyclePayload: Partial<Record<LifecycleMessageType, FieldPath[]>>;
}

/** Deeper than any of Baton's schemas; stops a schema that references itself. */
const MAX_SCHEMA_DEPTH = 32;
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const SUBSCHEMAS = ['then', 'else'] as const;

class SchemaIndex {
  private readonly byId = new Map<string, JsonSchema>();

  constructor(schemas: readonly JsonSchema[]) {
    for (const schema of schemas) if (typeof schema.$id === 'string') this.byId.set(schema.$id, schema);
  }

  /** The schema a `$ref` names from a schema whose id is `baseId`; Baton's refs name whole files. */
  resolve(ref: string, baseId: string | undefined): JsonSchema | undefined {
    try {
      return this.byId.get(new URL(ref, baseId).href);
    } catch {
      return undefined;
    }
  }

  markedPaths(schema: unknown, baseId?: string, path: PathSegment[] = [], found: FieldPath[] = []): FieldPath[] {
    if (!isRecord(schema) || path.length > MAX_SCHEMA_DEPTH) return found;
    const id = typeof schema.$id === 'string' ? schema.$id : baseId;
    if (schema[PERSONAL_DATA_KEYWORD] === true) {
      found.push([...path]);
      // Everything under a marked field is encrypted with it.
      return found;
    }
    if (typeof schema.$ref === 'string') this.markedPaths(this.resolve(schema.$ref, id), id, path, found);
    if (isRecord(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties)) {
        this.markedPaths(property, id, [...path, name], found);
      }
    }
    if (isRecord(schema.items)) this.markedPaths(schema.items, id, [...path, EVERY_ITEM], found);
    for (const list of SUBSCHEMA_LISTS) {
      const subschemas = schema[list];
      if (Array.isArray(subschemas)) for (const subschema of subschemas) this.markedPaths(subschema, id, path, found);
    }
    for (const key of SUBSCHEMAS) this.markedPaths(schema[key], id, path, found);
    return found;
  }
}

/** Collected once at start from schemas/json, so a field marked there needs no code change. */
export function collectMarkedPaths(): MarkedPaths {
  const handoff = loadHandoffSchemas();
  const lifecycle = loadLifecycleSchemas();
  const index = new SchemaIndex([
    handoff.envelope,
    ...handoff.shared,
    ...Object.values(handoff.data),
    lifecycle.envelope,
    ...Object.values(lifecycle.payloads),
  ]);
  const nonEmpty = <K extends string>(entries: [K, FieldPath[]][]): Partial<Record<K, FieldPath[]>> =>
    Object.fromEntries(entries.filter(([, paths]) => paths.length > 0)) as Partial<Record<K, FieldPath[]>>;
  return {
    handoff: index.markedPaths(handoff.envelope),
    handoffData: nonEmpty(
      Object.entries(handoff.data).map(([type, schema]) => [type as HandoffType, index.markedPaths(schema)]),
    ),
    lifecyclePayload: nonEmpty(
      Object.entries(lifecycle.payloads).map(([type, schema]) => [
        type as LifecycleMessageType,
        index.markedPaths(schema),
      ]),
    ),
  };
}
