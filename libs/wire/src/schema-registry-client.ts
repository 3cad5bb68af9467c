import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { BatonError } from '@baton/errors';
import type avro from 'avsc';
import { avroParseOptions, type AvroRecordSchema } from './handoff-avro-schema.js';

export type Compatibility = 'BACKWARD' | 'BACKWARD_TRANSITIVE' | 'FORWARD' | 'FULL' | 'NONE';

export interface SchemaRegistryOptions {
  /** Base URL of a Confluent-compatible REST API, e.g. http://127.0.0.1:8081 or Apicurio's .../apis/ccompat/v7. */
  url: string;
}

interface HttpLikeError {
  status?: number;
  message?: string;
}

function registryError(action: string, error: unknown, schemaId?: number): BatonError {
  const status = (error as HttpLikeError | undefined)?.status;
  const reason = (error as HttpLikeError | undefined)?.message ?? String(error);
  if (status === 404 && schemaId !== undefined) {
    return new BatonError('WIRE_UNKNOWN_SCHEMA_ID', `schema id ${schemaId} is not known to the schema registry`, {
      cause: error,
      details: { schemaId },
    });
  }
  if (status === 409) {
    return new BatonError(
      'SCHEMA_INCOMPATIBLE',
      `${action}: the registry refused the schema as incompatible: ${reason}`,
      {
        cause: error,
      },
    );
  }
  return new BatonError('REGISTRY_UNAVAILABLE', `${action}: ${reason}`, { cause: error, details: { status } });
}

/**
 * The schema registry as Baton uses it: subjects with an explicit compatibility level, and Avro
 * types parsed with Baton's logical types. Registry failures become coded BatonErrors.
 */
export class SchemaRegistryClient {
  readonly url: string;
  private readonly registry: SchemaRegistry;

  constructor(options: SchemaRegistryOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.registry = new SchemaRegistry(
      { host: this.url, retry: { retries: 2 } },
      { [SchemaType.AVRO]: avroParseOptions() },
    );
  }

  /**
   * Sets the subject's compatibility level. The registry client refuses to register when the level it
   * reads differs from the one asked for, and registries disagree on the default (Confluent answers
   * 404 for a new subject, Apicurio the global rule), so the level is always set first.
   */
  async setCompatibility(subject: string, level: Compatibility): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${this.url}/config/${encodeURIComponent(subject)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
        body: JSON.stringify({ compatibility: level }),
      });
    } catch (error) {
      throw registryError(`setting compatibility of ${subject}`, error);
    }
    if (!response.ok) {
      throw registryError(`setting compatibility of ${subject}`, {
        status: response.status,
        message: `HTTP ${response.status}: ${await response.text()}`,
      });
    }
  }

  /** Registers `schema` under `subject` (idempotent for an identical schema) and returns its id. */
  async register(schema: AvroRecordSchema, subject: string, level: Compatibility = 'BACKWARD'): Promise<number> {
    await this.setCompatibility(subject, level);
    try {
      const { id } = await this.registry.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(schema) },
        { subject, compatibility: COMPATIBILITY[level] },
      );
      return id;
    } catch (error) {
      throw registryError(`registering ${subject}`, error);
    }
  }

  /** The Avro writer type registered under `schemaId` (cached after the first fetch). */
  async avroType(schemaId: number): Promise<avro.Type> {
    try {
      return (await this.registry.getSchema(schemaId)) as unknown as avro.Type;
    } catch (error) {
      throw registryError(`fetching schema ${schemaId}`, error, schemaId);
    }
  }
}
