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
  const response = await fetch(`${url}/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ compatibility: GLOBAL_COMPATIBILITY }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new BatonError(
      'INFRA_UNAVAILABLE',
      `the schema registry at ${url} refused its global compatibility rule (HTTP ${response.status}): ${text.slice(0, 200)}`,
    );
  }
}
