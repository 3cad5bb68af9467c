import { configInvalid as invalid, optionalSetting, pemFileSetting, secretSetting, type Env } from '@baton/errors';
import type { SchemaRegistryOptions } from './schema-registry-client.js';

/**
 * The schema registry settings of every Baton process, read in this one place: SCHEMA_REGISTRY_URL,
 * SCHEMA_REGISTRY_USERNAME with SCHEMA_REGISTRY_PASSWORD or SCHEMA_REGISTRY_PASSWORD_FILE (basic
 * auth, Confluent Cloud's API key and secret), SCHEMA_REGISTRY_CA_FILE (PEM CA bundle for https).
 * Malformed settings raise CONFIG_INVALID naming the variable, never a secret's value.
 */
export function registryOptionsFromEnv(
  env: Env = process.env,
  url = env.SCHEMA_REGISTRY_URL?.trim(),
): SchemaRegistryOptions {
  if (!url) throw invalid('SCHEMA_REGISTRY_URL', 'SCHEMA_REGISTRY_URL is not set');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('SCHEMA_REGISTRY_URL', 'SCHEMA_REGISTRY_URL is not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid('SCHEMA_REGISTRY_URL', 'SCHEMA_REGISTRY_URL must be an http(s) URL');
  }
  if (parsed.username || parsed.password) {
    throw invalid(
      'SCHEMA_REGISTRY_URL',
      'SCHEMA_REGISTRY_URL must not carry credentials: use SCHEMA_REGISTRY_USERNAME and SCHEMA_REGISTRY_PASSWORD',
    );
  }
  const options: SchemaRegistryOptions = { url };

  const username = optionalSetting(env, 'SCHEMA_REGISTRY_USERNAME');
  const password = secretSetting(env, 'SCHEMA_REGISTRY_PASSWORD');
  if (password !== undefined && username === undefined) {
    throw invalid('SCHEMA_REGISTRY_USERNAME', 'a schema registry password is set without SCHEMA_REGISTRY_USERNAME');
  }
  if (username !== undefined) {
    if (password === undefined || password === '') {
      throw invalid(
        'SCHEMA_REGISTRY_PASSWORD',
        'SCHEMA_REGISTRY_USERNAME is set without SCHEMA_REGISTRY_PASSWORD or SCHEMA_REGISTRY_PASSWORD_FILE',
      );
    }
    if (username.includes(':')) {
      throw invalid('SCHEMA_REGISTRY_USERNAME', 'SCHEMA_REGISTRY_USERNAME must not contain ":" (basic auth)');
    }
    options.basicAuth = { username, password };
  }

  const ca = pemFileSetting(env, 'SCHEMA_REGISTRY_CA_FILE', 'CERTIFICATE');
  if (ca !== undefined) {
    if (parsed.protocol !== 'https:') {
      throw invalid('SCHEMA_REGISTRY_CA_FILE', 'SCHEMA_REGISTRY_CA_FILE is set but SCHEMA_REGISTRY_URL is not https');
    }
    options.ca = ca;
  }
  return options;
}
