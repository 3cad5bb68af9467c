import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * What `npm start` writes down for the tools that come after it (the `baton` command, the samples,
 * `npm run watch`), as `connection.json` in its state directory.
 */
export interface LocalConnection {
  kafkaBrokers: string[];
  schemaRegistryUrl: string;
  topicPrefix: string;
  /** Each service's address by name: `gateway` is the gateway's base URL. */
  services: Record<string, string>;
  /** The KAFKA_* security variables the local tools connect with, when `npm start -- --secure` made them. */
  kafkaEnv?: Record<string, string>;
  /** The SCHEMA_REGISTRY_* variables the local tools read the registry with, when `npm start -- --secure` made them. */
  registryEnv?: Record<string, string>;
  /**
   * The local tools' signing key (BATON_SIGNING_KEY_FILE, BATON_SIGNING_KEY_ID) and personal data
   * key ring (BATON_PII_KEYRING_FILE): what they publish is encrypted and signed as a service's is.
   */
  messageEnv?: Record<string, string>;
}

/** The state directory's name in a checkout of Baton, and the file of the connection in it. */
export const STATE_DIR_NAME = '.baton';
export const CONNECTION_FILE = 'connection.json';

type Env = Record<string, string | undefined>;

/**
 * What `npm start` wrote down: in BATON_STATE_DIR when it is set, else in the nearest `.baton/`
 * from `cwd` up; undefined when there is none. Rejects when the file is there but unreadable.
 */
export async function readSavedConnection(env: Env, cwd: string): Promise<LocalConnection | undefined> {
  const dirs = env.BATON_STATE_DIR ? [resolve(env.BATON_STATE_DIR)] : ancestors(resolve(cwd)).map(stateDirIn);
  for (const dir of dirs) {
    const file = join(dir, CONNECTION_FILE);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    try {
      return JSON.parse(text) as LocalConnection;
    } catch (error) {
      throw new Error(`${file} is not JSON: ${(error as Error).message}`, { cause: error });
    }
  }
  return undefined;
}

/**
 * `env` with what `connection` gives for each of its three parts the environment leaves out: Kafka
 * (KAFKA_BROKERS, the topic prefix and the KAFKA_* security variables), the schema registry
 * (SCHEMA_REGISTRY_URL and its SCHEMA_REGISTRY_* variables) and the gateway (BATON_GATEWAY_URL). A
 * part the environment names is left to it whole, so a saved password never goes to another
 * broker. The gateway's token is never saved: it is given as `npm start` prints it.
 */
export function withSavedConnection(env: Env, connection: LocalConnection | undefined): Env {
  if (connection === undefined) return env;
  const saved: Env = {};
  if (!env.KAFKA_BROKERS) {
    Object.assign(saved, connection.kafkaEnv, {
      KAFKA_BROKERS: connection.kafkaBrokers.join(','),
      BATON_TOPIC_PREFIX: connection.topicPrefix,
    });
  }
  if (!env.SCHEMA_REGISTRY_URL) {
    Object.assign(saved, connection.registryEnv, { SCHEMA_REGISTRY_URL: connection.schemaRegistryUrl });
  }
  const gateway = connection.services.gateway;
  if (!env.BATON_GATEWAY_URL && gateway !== undefined) saved.BATON_GATEWAY_URL = gateway;
  const merged = { ...env };
  for (const [name, value] of Object.entries(saved)) if (!merged[name]) merged[name] = value;
  return merged;
}

function stateDirIn(dir: string): string {
  return join(dir, STATE_DIR_NAME);
}

/** `dir` and each folder above it, up to the root. */
function ancestors(dir: string): string[] {
  const found = [dir];
  for (let parent = dirname(dir); parent !== found.at(-1); parent = dirname(parent)) found.push(parent);
  return found;
}
