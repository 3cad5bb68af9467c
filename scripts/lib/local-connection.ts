import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONNECTION_FILE, STATE_DIR_NAME, type LocalConnection } from '@baton/cli';

/**
 * Where `npm start` keeps what it leaves for the other scripts (connection.json) and its logs
 * (logs/): BATON_STATE_DIR, else the repository's .baton/. A second `npm start` with a state
 * directory of its own (a test's) leaves the first one's files alone.
 */
export function stateDir(env: Record<string, string | undefined> = process.env): string {
  const configured = env['BATON_STATE_DIR'];
  return configured ? resolve(configured) : fileURLToPath(new URL(`../../${STATE_DIR_NAME}/`, import.meta.url));
}

/** Where `npm start` leaves the addresses of what it started, for the other scripts to find. */
function connectionFile(): string {
  return join(stateDir(), CONNECTION_FILE);
}

/** The environment a local tool reads its Kafka security from: its own, over what `npm start` saved. */
export function kafkaEnvOf(connection: LocalConnection): Record<string, string | undefined> {
  return { ...connection.kafkaEnv, ...process.env };
}

/** The environment a local tool reads its schema registry settings from: its own, over what `npm start` saved. */
export function registryEnvOf(connection: LocalConnection): Record<string, string | undefined> {
  return { ...connection.registryEnv, ...process.env };
}

export async function saveConnection(connection: LocalConnection): Promise<void> {
  await mkdir(stateDir(), { recursive: true });
  await writeFile(connectionFile(), `${JSON.stringify(connection, null, 2)}\n`);
}

export async function forgetConnection(): Promise<void> {
  await rm(connectionFile(), { force: true });
}

/**
 * KAFKA_BROKERS and SCHEMA_REGISTRY_URL from the environment when set, else what a running
 * `npm start` saved; refuses with a hint when there is neither.
 */
export async function loadConnection(): Promise<LocalConnection> {
  const env = process.env;
  if (env.KAFKA_BROKERS && env.SCHEMA_REGISTRY_URL) {
    return {
      kafkaBrokers: env.KAFKA_BROKERS.split(',').map((broker) => broker.trim()),
      schemaRegistryUrl: env.SCHEMA_REGISTRY_URL,
      topicPrefix: env.BATON_TOPIC_PREFIX ?? 'baton',
      services: {},
    };
  }
  try {
    return JSON.parse(await readFile(connectionFile(), 'utf8')) as LocalConnection;
  } catch {
    throw new Error('No Baton is running: start one with `npm start`, or set KAFKA_BROKERS and SCHEMA_REGISTRY_URL.');
  }
}
