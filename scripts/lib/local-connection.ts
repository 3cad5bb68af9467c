import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** Where `npm start` leaves the addresses of what it started, for the other scripts to find. */
const CONNECTION_FILE = fileURLToPath(new URL('../../.baton/connection.json', import.meta.url));

export interface LocalConnection {
  kafkaBrokers: string[];
  schemaRegistryUrl: string;
  topicPrefix: string;
  services: Record<string, string>;
}

export async function saveConnection(connection: LocalConnection): Promise<void> {
  await mkdir(fileURLToPath(new URL('../../.baton/', import.meta.url)), { recursive: true });
  await writeFile(CONNECTION_FILE, `${JSON.stringify(connection, null, 2)}\n`);
}

export async function forgetConnection(): Promise<void> {
  await rm(CONNECTION_FILE, { force: true });
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
    return JSON.parse(await readFile(CONNECTION_FILE, 'utf8')) as LocalConnection;
  } catch {
    throw new Error('No Baton is running: start one with `npm start`, or set KAFKA_BROKERS and SCHEMA_REGISTRY_URL.');
  }
}
