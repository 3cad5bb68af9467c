import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { BatonError } from '@baton/errors';
import http from 'node:http';
import https from 'node:https';
import type avro from 'avsc';
import { avroParseOptions, type AvroRecordSchema } from './handoff-avro-schema.js';

export type Compatibility = 'BACKWARD' | 'BACKWARD_TRANSITIVE' | 'FORWARD' | 'FULL' | 'NONE';

export interface SchemaRegistryOptions {
  /** Base URL of a Confluent-compatible REST API, e.g. http://127.0.0.1:8081 or Apicurio's .../apis/ccompat/v7. */
  url: string;
  /** HTTP basic auth (Confluent Cloud: the API key as username, its secret as password). */
  basicAuth?: { username: string; password: string };
  /** PEM CA bundle trusted for an https URL (replaces the public CAs; the server name is still checked). */
  ca?: string;
}

/** The URL without userinfo, for messages: credentials never reach an error or a log. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
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
  if (status === 401 || status === 403) {
    return new BatonError(
      'REGISTRY_AUTH_FAILED',
      status === 401
        ? `${action}: the schema registry refused the credentials (HTTP 401)`
        : // A credential that may only read, asked to register a schema no one registered before.
          `${action}: the schema registry does not let these credentials do it (HTTP 403); a schema must be registered by a credential that may write before a service that only reads starts`,
      // No cause: the library's error is left out so nothing of the request travels with it.
      { details: { status } },
    );
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
  private readonly agent: http.Agent;
  // A true private field: the header never shows when the client is inspected or logged.
  readonly #authorization: string | undefined;

  constructor(options: SchemaRegistryOptions) {
    const base = options.url.replace(/\/+$/, '');
    this.url = redactUrl(base);
    // The registry library (mappersmith) speaks through node:http/https with an Agent, so one
    // https.Agent carrying the CA serves it and setCompatibility alike: no undici, no second stack.
    // rejectUnauthorized and the server name check keep their defaults (on).
    this.agent = base.startsWith('https:')
      ? new https.Agent({ keepAlive: true, ca: options.ca })
      : new http.Agent({ keepAlive: true });
    this.#authorization = options.basicAuth
      ? `Basic ${Buffer.from(`${options.basicAuth.username}:${options.basicAuth.password}`).toString('base64')}`
      : undefined;
    this.registry = new SchemaRegistry(
      {
        host: this.url,
        retry: { retries: 2 },
        agent: this.agent,
        ...(options.basicAuth ? { auth: options.basicAuth } : {}),
      },
      { [SchemaType.AVRO]: avroParseOptions() },
    );
  }

  private send(
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    body?: string,
    timeoutMs?: number,
  ): Promise<{ status: number; text: string }> {
    const target = new URL(`${this.url}${path}`);
    const transport = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = transport.request(
        target,
        {
          method,
          agent: this.agent,
          headers: {
            'content-type': 'application/vnd.schemaregistry.v1+json',
            ...(this.#authorization ? { authorization: this.#authorization } : {}),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
          response.on('error', reject);
        },
      );
      if (timeoutMs !== undefined) {
        request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      }
      request.on('error', (error) => reject(new Error(`${target.origin}: ${error.message}`)));
      request.end(body);
    });
  }

  /**
   * Sets the subject's compatibility level. The registry client refuses to register when the level it
   * reads differs from the one asked for, and registries disagree on the default (Confluent answers
   * 404 for a new subject, Apicurio the global rule), so the level is always set first.
   */
  async setCompatibility(subject: string, level: Compatibility): Promise<void> {
    const path = `/config/${encodeURIComponent(subject)}`;
    const body = JSON.stringify({ compatibility: level });
    let response: { status: number; text: string };
    try {
      response = await this.send('PUT', path, body);
      // Apicurio creates the subject's rule on the first PUT and answers a concurrent first PUT with
      // 409 ("a rule named COMPATIBILITY already exists"): instances starting together (compose up)
      // race there. The rule exists by then, so the same PUT again updates it.
      if (response.status === 409) response = await this.send('PUT', path, body);
    } catch (error) {
      throw registryError(`setting compatibility of ${subject}`, error);
    }
    if (response.status < 200 || response.status >= 300) {
      throw registryError(`setting compatibility of ${subject}`, {
        status: response.status,
        message: `HTTP ${response.status}: ${response.text}`,
      });
    }
  }

  /** Whether GET /subjects answers 2xx within `timeoutMs`, asked with this client's credentials and CA. */
  async isUp(timeoutMs: number): Promise<boolean> {
    try {
      const { status } = await this.send('GET', '/subjects', undefined, timeoutMs);
      return status >= 200 && status < 300;
    } catch {
      return false;
    }
  }

  /**
   * The id of `schema` when it is registered under `subject`, else undefined: the Confluent API's
   * lookup, a POST that changes nothing, so a principal that may only read can make it.
   */
  async lookUp(schema: AvroRecordSchema, subject: string): Promise<number | undefined> {
    let response: { status: number; text: string };
    try {
      response = await this.send(
        'POST',
        `/subjects/${encodeURIComponent(subject)}`,
        JSON.stringify({ schema: JSON.stringify(schema) }),
      );
    } catch (error) {
      throw registryError(`looking up ${subject}`, error);
    }
    // 404: no such subject, or the schema is not among its versions.
    if (response.status === 404) return undefined;
    if (response.status < 200 || response.status >= 300) {
      throw registryError(`looking up ${subject}`, {
        status: response.status,
        message: `HTTP ${response.status}: ${response.text}`,
      });
    }
    return (JSON.parse(response.text) as { id: number }).id;
  }

  /**
   * The id of `schema` under `subject`, registering it (idempotent for an identical schema) when it
   * is not there yet. An already registered schema is only looked up: a service whose registry
   * credential may only read starts against schemas registered before it.
   */
  async register(schema: AvroRecordSchema, subject: string, level: Compatibility = 'BACKWARD'): Promise<number> {
    const registered = await this.lookUp(schema, subject);
    if (registered !== undefined) return registered;
    await this.setCompatibility(subject, level);
    const registerOnce = () =>
      this.registry.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(schema) },
        { subject, compatibility: COMPATIBILITY[level] },
      );
    try {
      try {
        return (await registerOnce()).id;
      } catch (error) {
        // Apicurio refuses a concurrent first registration of a subject with 409 ("an artifact with
        // ID ... already exists"), as it does an incompatible schema. Once the subject exists, the
        // same schema registers as its existing version; an incompatible one is refused again.
        if ((error as HttpLikeError | undefined)?.status !== 409) throw error;
        return (await registerOnce()).id;
      }
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
