import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { systemToolsFor } from '../../test/system-tools/suite.js';
import { repoPath, run, serviceNames } from './repo.js';

interface ComposeService {
  environment?: Record<string, string | number | null>;
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[];
  volumes?: string[];
  network_mode?: string;
  restart?: string;
}

const SERVICES = serviceNames();
const SECRET = 'dev-secret-change-me';

/** The variables the files interpolate, unset so that their defaults are what is checked. */
function envWithoutOverrides(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('BATON_') || name === 'LOG_LEVEL' || name.startsWith('COMPOSE_')) delete env[name];
  }
  return env;
}

let services: Record<string, ComposeService>;
const tools = systemToolsFor('infra/compose/secured.yml test', ['docker-compose']);

beforeAll(() => {
  tools.assertAvailable();
  const config = run(
    'docker-compose',
    ['-f', 'docker-compose.yml', '-f', 'infra/compose/secured.yml', 'config'],
    envWithoutOverrides(),
  );
  services = (parse(config) as { services: Record<string, ComposeService> }).services;
});

function service(name: string): ComposeService {
  const found = services[name];
  if (found === undefined) throw new Error(`the secured compose has no service ${name}`);
  return found;
}

describe.skipIf(tools.skip)('docker-compose.yml with infra/compose/secured.yml', () => {
  it.each(SERVICES)('%s logs in as its own SCRAM user, once the users exist', (name) => {
    const { environment, depends_on } = service(name);
    expect(environment).toMatchObject({
      KAFKA_BROKERS: 'kafka:9092',
      KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: name,
      KAFKA_SASL_PASSWORD: `${name}-${SECRET}`,
    });
    expect(depends_on?.['kafka-users']).toEqual({ condition: 'service_completed_successfully' });
  });

  it('runs Kafka with the StandardAuthorizer, SCRAM on every listener others reach, plaintext on loopback only', () => {
    const env = service('kafka').environment!;
    expect(env).toMatchObject({
      KAFKA_AUTHORIZER_CLASS_NAME: 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: 'false',
      KAFKA_SUPER_USERS: 'User:ANONYMOUS;User:schema-registry',
      KAFKA_SASL_ENABLED_MECHANISMS: 'SCRAM-SHA-512',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'SETUP',
    });
    const protocols = Object.fromEntries(
      String(env.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP)
        .split(',')
        .map((entry) => entry.split(':')),
    ) as Record<string, string>;
    for (const listener of String(env.KAFKA_LISTENERS).split(',')) {
      const [, name, host] = /^([A-Z]+):\/\/([^:]+):\d+$/.exec(listener)!;
      if (protocols[name!] === 'PLAINTEXT') expect(host, `${name} is plaintext`).toBe('127.0.0.1');
      else expect(protocols[name!]).toBe('SASL_PLAINTEXT');
    }
    expect([service('kafka').healthcheck?.test].flat().join(' ')).toContain('--bootstrap-server 127.0.0.1:9095');
  });

  it("creates every service's user and the registry's, and applies the generated ACLs, on the loopback listener", () => {
    const users = service('kafka-users');
    expect(users.network_mode).toBe('service:kafka');
    expect(users.depends_on).toEqual({ kafka: { condition: 'service_healthy' } });
    expect(users.entrypoint).toEqual(['/bin/bash', '/baton/kafka-users.sh']);
    expect([...(users.volumes ?? [])].sort()).toEqual([
      `${repoPath('infra', 'compose', 'kafka-acls.txt')}:/baton/kafka-acls.txt:ro`,
      `${repoPath('infra', 'compose', 'kafka-users.sh')}:/baton/kafka-users.sh:ro`,
    ]);
    expect(users.environment).toMatchObject({ KAFKA_BOOTSTRAP: '127.0.0.1:9095', BATON_KAFKA_DEV_SECRET: SECRET });
    expect(String(users.environment?.BATON_KAFKA_USERS).split(/\s+/).sort()).toEqual(
      ['schema-registry', ...SERVICES].sort(),
    );
    expect(service('create-topics')).toMatchObject({
      network_mode: 'service:kafka',
      environment: expect.objectContaining({ KAFKA_BOOTSTRAP: '127.0.0.1:9095' }),
    });
  });

  it('logs the schema registry in as schema-registry', () => {
    const registry = service('schema-registry');
    expect(registry.environment).toMatchObject({
      SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS: 'SASL_PLAINTEXT://kafka:9092',
      SCHEMA_REGISTRY_KAFKASTORE_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
      SCHEMA_REGISTRY_KAFKASTORE_SASL_MECHANISM: 'SCRAM-SHA-512',
    });
    expect(String(registry.environment?.SCHEMA_REGISTRY_KAFKASTORE_SASL_JAAS_CONFIG)).toContain(
      `username="schema-registry" password="schema-registry-${SECRET}"`,
    );
    expect(registry.depends_on?.['kafka-users']).toEqual({ condition: 'service_completed_successfully' });
  });
});

describe.skipIf(tools.skip)('infra/compose/kafka-users.sh', () => {
  let dir: string;
  beforeAll(() => {
    // Stand-ins for kafka-configs.sh and kafka-acls.sh that record each call: no broker needed.
    dir = mkdtempSync(join(tmpdir(), 'baton-kafka-users-'));
    mkdirSync(join(dir, 'bin'));
    for (const tool of ['kafka-configs.sh', 'kafka-acls.sh']) {
      const fake = join(dir, 'bin', tool);
      writeFileSync(fake, `#!/usr/bin/env bash\nprintf '%s %s\\n' "${tool}" "$*" >> "${join(dir, 'calls')}"\n`);
      chmodSync(fake, 0o755);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('upserts each user with its password, then runs every ACL line against the given bootstrap server', () => {
    const output = run('bash', [repoPath('infra', 'compose', 'kafka-users.sh')], {
      ...envWithoutOverrides(),
      KAFKA_HOME: dir,
      KAFKA_BOOTSTRAP: '127.0.0.1:7777',
      BATON_KAFKA_DEV_SECRET: 's3',
      BATON_KAFKA_USERS: 'router sales-agent',
      BATON_ACLS_FILE: repoPath('infra', 'compose', 'kafka-acls.txt'),
    });
    const calls = readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
    expect(calls.filter((call) => call.startsWith('kafka-configs.sh')).sort()).toEqual([
      'kafka-configs.sh --bootstrap-server 127.0.0.1:7777 --alter --entity-type users --entity-name router --add-config SCRAM-SHA-512=[password=router-s3]',
      'kafka-configs.sh --bootstrap-server 127.0.0.1:7777 --alter --entity-type users --entity-name sales-agent --add-config SCRAM-SHA-512=[password=sales-agent-s3]',
    ]);
    const lines = readFileSync(repoPath('infra', 'compose', 'kafka-acls.txt'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.replace('127.0.0.1:9095', '127.0.0.1:7777'));
    expect(calls.filter((call) => call.startsWith('kafka-acls.sh')).sort()).toEqual(lines.sort());
    expect(output).toContain(`${lines.length} ACL commands applied`);
  });
});
