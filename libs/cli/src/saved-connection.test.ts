import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSavedConnection, withSavedConnection, type LocalConnection } from './saved-connection.js';

const connection: LocalConnection = {
  kafkaBrokers: ['10.0.0.1:9093', '10.0.0.2:9093'],
  schemaRegistryUrl: 'https://127.0.0.1:8443',
  topicPrefix: 'baton',
  services: { gateway: 'http://127.0.0.1:41234', tracker: 'http://127.0.0.1:41235' },
  kafkaEnv: { KAFKA_SSL_CA_FILE: '/s/ca.pem', KAFKA_SSL_CERT_FILE: '/s/tools.pem' },
  registryEnv: { SCHEMA_REGISTRY_CA_FILE: '/s/ca.pem' },
};

let root: string | undefined;
afterEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function checkout(): Promise<string> {
  root = await mkdtemp(join(tmpdir(), 'baton-saved-connection-'));
  await mkdir(join(root, '.baton'));
  await mkdir(join(root, 'services', 'router'), { recursive: true });
  return root;
}

describe('readSavedConnection', () => {
  it('finds the nearest .baton/connection.json from the folder the command runs in up', async () => {
    const dir = await checkout();
    await writeFile(join(dir, '.baton', 'connection.json'), JSON.stringify(connection));
    await expect(readSavedConnection({}, join(dir, 'services', 'router'))).resolves.toEqual(connection);
    await expect(readSavedConnection({}, dir)).resolves.toEqual(connection);
  });

  it('reads BATON_STATE_DIR alone when it is set, and finds nothing where nothing was saved', async () => {
    const dir = await checkout();
    await writeFile(join(dir, '.baton', 'connection.json'), JSON.stringify(connection));
    const elsewhere = join(dir, 'services');
    await expect(readSavedConnection({ BATON_STATE_DIR: elsewhere }, dir)).resolves.toBeUndefined();
    await writeFile(join(elsewhere, 'connection.json'), JSON.stringify({ ...connection, topicPrefix: 'mine' }));
    await expect(readSavedConnection({ BATON_STATE_DIR: elsewhere }, dir)).resolves.toMatchObject({
      topicPrefix: 'mine',
    });
  });

  it('says which file is broken when it is not JSON', async () => {
    const dir = await checkout();
    await writeFile(join(dir, '.baton', 'connection.json'), '{"kafkaBrokers": [');
    await expect(readSavedConnection({}, dir)).rejects.toThrow(`${join(dir, '.baton', 'connection.json')} is not JSON`);
  });
});

describe('withSavedConnection', () => {
  it('gives Kafka, the registry and the gateway as saved when the environment names none of them', () => {
    expect(withSavedConnection({ BATON_TOKEN: 't', KAFKA_BROKERS: '' }, connection)).toEqual({
      BATON_TOKEN: 't',
      KAFKA_BROKERS: '10.0.0.1:9093,10.0.0.2:9093',
      BATON_TOPIC_PREFIX: 'baton',
      KAFKA_SSL_CA_FILE: '/s/ca.pem',
      KAFKA_SSL_CERT_FILE: '/s/tools.pem',
      SCHEMA_REGISTRY_URL: 'https://127.0.0.1:8443',
      SCHEMA_REGISTRY_CA_FILE: '/s/ca.pem',
      BATON_GATEWAY_URL: 'http://127.0.0.1:41234',
    });
  });

  it('leaves a part the environment names to it whole: no saved credential goes to another broker', () => {
    const env = { KAFKA_BROKERS: 'kafka.example:9092', BATON_GATEWAY_URL: 'https://gw.example' };
    expect(withSavedConnection(env, connection)).toEqual({
      ...env,
      SCHEMA_REGISTRY_URL: 'https://127.0.0.1:8443',
      SCHEMA_REGISTRY_CA_FILE: '/s/ca.pem',
    });
    expect(withSavedConnection(env, undefined)).toBe(env);
  });
});
