import http from 'node:http';
import { BatonError } from '@baton/errors';

/** The global compatibility level every registry Baton starts holds: Confluent's default. */
export const GLOBAL_COMPATIBILITY = 'BACKWARD';

/**
 * Stores the registry's global compatibility rule through its Confluent-compatible API (`url`,
 * e.g. http://127.0.0.1:40123/apis/ccompat/v7). Apicurio's `registry.rules.global.compatibility`
 * setting is only a default its own v2 API reports and applies: the Confluent API's GET /config
 * answers NONE for it, so a Confluent client (or an auditor) reads the registry as unchecked.
 * A stored rule is what both APIs answer and enforce.
 */
export async function storeGlobalCompatibility(url: string): Promise<void> {
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    // A connection of its own, closed after the answer: a kept-alive one holds the registry's
    // stop until the idle connection times out.
    const request = http.request(
      new URL(`${url}/config`),
      { method: 'PUT', agent: false, headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: body }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ compatibility: GLOBAL_COMPATIBILITY }));
  });
  if (status < 200 || status >= 300) {
    throw new BatonError(
      'INFRA_UNAVAILABLE',
      `the schema registry at ${url} refused its global compatibility rule (HTTP ${status}): ${text.slice(0, 200)}`,
    );
  }
}
