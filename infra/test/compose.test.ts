import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseKeyRing } from '@baton/field-encryption';
import { PERSONAL_DATA_READERS } from '../../scripts/lib/personal-data-keyring.js';
import { systemToolsFor } from '../../test/system-tools/suite.js';
import { agentIdOf, agentIds, expectedTopics, readRepoFile, repoPath, run, serviceNames } from './repo.js';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  container_name?: string;
  ports?: { target: number; published?: number | string }[];
  expose?: string[];
  environment?: Record<string, string | number | null>;
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[];
  volumes?: string[];
  restart?: string;
  read_only?: boolean;
  tmpfs?: string[];
  secrets?: { source: string }[];
  extra_hosts?: string[];
}

interface ComposeFile {
  services: Record<string, ComposeService>;
}

const SERVICES = serviceNames();

/** The variables the file interpolates, unset so that its defaults are what is checked. */
function envWithoutOverrides(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('BATON_') || name.startsWith('OTEL_') || name === 'LOG_LEVEL' || name.startsWith('COMPOSE_'))
      delete env[name];
  }
  return env;
}

let compose: ComposeFile;
const tools = systemToolsFor('docker-compose.yml test', ['docker-compose']);

beforeAll(() => {
  tools.assertAvailable();
  // docker-compose resolves anchors, merge keys and ${VAR:-default}, and refuses an invalid file.
  compose = parse(run('docker-compose', ['-f', 'docker-compose.yml', 'config'], envWithoutOverrides())) as ComposeFile;
});

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (found === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

function healthcheckCommand(entry: ComposeService): string {
  const test = entry.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

describe.skipIf(tools.skip)('docker-compose.yml', () => {
  it('finds every service folder to check', () => {
    expect(SERVICES).toContain('router');
    expect(SERVICES).toContain('gateway');
    expect(SERVICES.length).toBeGreaterThanOrEqual(9);
  });

  it.each(SERVICES)('builds %s from the root Dockerfile with SERVICE set to it', (name) => {
    const { build, image } = service(name);
    expect(build).toBeDefined();
    expect(resolve(build!.context, build!.dockerfile)).toBe(repoPath('Dockerfile'));
    expect(build!.args).toEqual({ SERVICE: name });
    expect(image).toMatch(new RegExp(`^baton/${name}:`));
    expect(existsSync(repoPath('services', name, 'src', 'main.ts'))).toBe(true);
  });

  it('builds no image for a service that has no folder in services/', () => {
    const built = Object.entries(compose.services)
      .filter(([, entry]) => entry.build !== undefined)
      .map(([name]) => name)
      .sort();
    expect(built).toEqual(SERVICES);
  });

  it.each(SERVICES)('configures %s for containers, with the shared environment', (name) => {
    const env = service(name).environment ?? {};
    expect(env).toMatchObject({
      KAFKA_BROKERS: 'kafka:9092',
      SCHEMA_REGISTRY_URL: 'http://schema-registry:8081',
      BATON_TOPIC_PREFIX: 'baton',
      BATON_PARTITIONS: '6',
      BATON_REPLICATION_FACTOR: '1',
      HTTP_PORT: '8080',
      HTTP_HOST: '0.0.0.0',
    });
    expect(service(name).read_only).toBe(true);
    expect(service(name).tmpfs).toEqual(['/tmp']);
  });

  it.each(SERVICES)('starts %s after Kafka and the registry are healthy and the topics exist', (name) => {
    const entry = service(name);
    expect(entry.depends_on).toEqual({
      kafka: { condition: 'service_healthy' },
      'schema-registry': { condition: 'service_healthy' },
      'create-topics': { condition: 'service_completed_successfully' },
    });
    expect(healthcheckCommand(entry)).toContain('http://127.0.0.1:8080/readyz');
  });

  it.each(SERVICES.filter((name) => name !== 'gateway'))(
    'lets %s scale: no container_name and no fixed host port',
    (name) => {
      const entry = service(name);
      expect(entry.container_name).toBeUndefined();
      for (const port of entry.ports ?? []) expect(port.published).toBeUndefined();
    },
  );

  it.each(SERVICES)('exports the traces of %s to Jaeger under its own service name', (name) => {
    const agentId = agentIdOf(name);
    expect(service(name).environment).toMatchObject({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318',
      OTEL_SDK_DISABLED: 'false',
      OTEL_SERVICE_NAME: agentId === undefined ? name : `agent.${agentId}`,
    });
  });

  it('runs Jaeger all-in-one: OTLP/HTTP inside the network, its UI on the host', () => {
    const jaeger = service('jaeger');
    expect(jaeger.image).toMatch(/^jaegertracing\/jaeger:2\./);
    expect(jaeger.expose).toEqual(['4318']);
    expect(jaeger.ports).toEqual([{ target: 16686, published: 16686 }]);
  });

  it('publishes the gateway on a host port, with an API key bound to the senders from outside, and the replay targets', () => {
    const gateway = service('gateway');
    expect(gateway.container_name).toBeUndefined();
    expect(gateway.ports).toEqual([{ target: 8080, published: 8080 }]);
    expect(String(gateway.environment?.BATON_API_KEYS)).toMatch(
      /^[^:,]+:[^:,]+:(viewer|publisher|operator|personal-data)(\+(viewer|publisher|operator|personal-data))*:senders=user\|customer_service_agent_001$/,
    );
    expect(gateway.environment).toHaveProperty('BATON_REPLAY_TARGETS');
  });

  it('mounts the personal data key ring into exactly the services npm start gives it to', () => {
    const holders = SERVICES.filter((name) => service(name).secrets !== undefined);
    expect(holders).toEqual([...PERSONAL_DATA_READERS].sort());
    for (const name of SERVICES) {
      const expected = PERSONAL_DATA_READERS.includes(name) ? '/run/secrets/pii-keyring' : undefined;
      expect(service(name).environment?.BATON_PII_KEYRING_FILE, name).toBe(expected);
    }
    expect(() => parseKeyRing(readRepoFile('infra', 'compose', 'pii-keyring.example.json'), 'example')).not.toThrow();
  });

  it("runs seed 002's team as model agents when BATON_MODEL is set, with the key as a secret file and the host's Ollama in reach", () => {
    const modelAgents = SERVICES.filter((name) => service(name).environment?.BATON_MODEL !== undefined);
    expect(modelAgents).toEqual(['issues-and-repairs-agent', 'sales-agent', 'triage-agent']);
    for (const name of modelAgents) {
      expect(service(name).environment, name).toMatchObject({
        BATON_MODEL: '',
        BATON_MODEL_BASE_URL: '',
        BATON_MODEL_API_KEY_FILE: '/run/secrets/model-api-key',
      });
      expect(
        service(name).secrets?.map((secret) => secret.source),
        name,
      ).toContain('model-api-key');
      // A Linux engine resolves host.docker.internal only when told, as Docker Desktop does by itself.
      expect(service(name).extra_hosts, name).toEqual(['host.docker.internal:host-gateway']);
    }
  });

  it('reaches the human agent over HTTP on a port Docker picks', () => {
    expect(service('human-agent').ports).toEqual([{ target: 8080 }]);
  });

  it('points the router at the routing table and the sender policy inside the image', () => {
    expect(service('router').environment?.ROUTING_TABLE).toBe('/app/services/router/routing-table.yaml');
    expect(existsSync(repoPath('services', 'router', 'routing-table.yaml'))).toBe(true);
    expect(service('router').environment?.AUTHORIZATION_POLICY).toBe('/app/services/router/authorization-policy.yaml');
    expect(existsSync(repoPath('services', 'router', 'authorization-policy.yaml'))).toBe(true);
  });

  it('runs Kafka in KRaft mode on one node with transactions possible', () => {
    const kafka = service('kafka');
    expect(kafka.image).toMatch(/^apache\/kafka:/);
    expect(kafka.environment).toMatchObject({
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@kafka:9093',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: 1,
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: 1,
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1,
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    });
    expect(String(kafka.environment?.KAFKA_ADVERTISED_LISTENERS)).toContain('PLAINTEXT://kafka:9092');
    // KRaft's cluster id is a base64url UUID: 16 bytes.
    expect(Buffer.from(String(kafka.environment?.CLUSTER_ID), 'base64url')).toHaveLength(16);
    expect(healthcheckCommand(kafka)).toContain('--bootstrap-server localhost:9092');
  });

  it('runs a Confluent schema registry on that Kafka, BACKWARD compatible, with a healthcheck', () => {
    const registry = service('schema-registry');
    expect(registry.image).toMatch(/^confluentinc\/cp-schema-registry:/);
    expect(registry.environment).toMatchObject({
      SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS: 'PLAINTEXT://kafka:9092',
      SCHEMA_REGISTRY_LISTENERS: 'http://0.0.0.0:8081',
      SCHEMA_REGISTRY_SCHEMA_COMPATIBILITY_LEVEL: 'backward',
    });
    expect(registry.depends_on).toEqual({ kafka: { condition: 'service_healthy' } });
    expect(healthcheckCommand(registry)).toContain('http://localhost:8081/');
  });

  it('creates the topics once Kafka is healthy, for every agent', () => {
    const topics = service('create-topics');
    expect(topics.depends_on).toEqual({ kafka: { condition: 'service_healthy' } });
    expect(topics.restart).toBe('no');
    expect(topics.volumes).toEqual([`${repoPath('infra', 'compose', 'create-topics.sh')}:/baton/create-topics.sh:ro`]);
    expect(topics.entrypoint).toEqual(['/bin/bash', '/baton/create-topics.sh']);
    expect(String(topics.environment?.BATON_AGENT_IDS).split(/\s+/).sort()).toEqual(agentIds());
    expect(topics.environment).toMatchObject({ KAFKA_BOOTSTRAP: 'kafka:9092', BATON_PARTITIONS: '6' });
  });

  it('runs Prometheus with infra/prometheus/prometheus.yml and Grafana with the provisioned dashboards', () => {
    expect(service('prometheus').volumes).toEqual([
      `${repoPath('infra', 'prometheus', 'prometheus.yml')}:/etc/prometheus/prometheus.yml:ro`,
    ]);
    const grafanaVolumes = service('grafana').volumes ?? [];
    expect(grafanaVolumes).toContain(`${repoPath('infra', 'grafana', 'provisioning')}:/etc/grafana/provisioning:ro`);
    const provider = parse(readRepoFile('infra', 'grafana', 'provisioning', 'dashboards', 'baton.yml')) as {
      providers: { options: { path: string } }[];
    };
    expect(grafanaVolumes).toContain(
      `${repoPath('infra', 'grafana', 'dashboards')}:${provider.providers[0]!.options.path}:ro`,
    );
    const datasources = parse(readRepoFile('infra', 'grafana', 'provisioning', 'datasources', 'prometheus.yml')) as {
      datasources: { type: string; url: string }[];
    };
    expect(datasources.datasources).toEqual([
      expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090' }),
    ]);
  });
});

describe.skipIf(tools.skip)('infra/compose/create-topics.sh', () => {
  let dir: string;
  beforeAll(() => {
    // A stand-in for kafka-topics.sh that records each call: no broker is needed to see what is created.
    dir = mkdtempSync(join(tmpdir(), 'baton-create-topics-'));
    mkdirSync(join(dir, 'bin'));
    const fake = join(dir, 'bin', 'kafka-topics.sh');
    writeFileSync(fake, `#!/usr/bin/env bash\nprintf '%s\\n' "$*" >> "${join(dir, 'calls')}"\n`);
    chmodSync(fake, 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates every topic of the convention with its configs, and nothing else', () => {
    const env = {
      ...envWithoutOverrides(),
      KAFKA_HOME: dir,
      BATON_AGENT_IDS: String(service('create-topics').environment?.BATON_AGENT_IDS),
    };
    const output = run('bash', [repoPath('infra', 'compose', 'create-topics.sh')], env);
    const calls = readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
    const created = calls.map((call) => {
      const args = call.split(' ');
      const value = (flag: string) => args[args.indexOf(flag) + 1];
      expect(args).toContain('--if-not-exists');
      expect(value('--bootstrap-server')).toBe('kafka:9092');
      expect(value('--partitions')).toBe('6');
      expect(value('--replication-factor')).toBe('1');
      const config = Object.fromEntries(
        args.flatMap((arg, i) => (args[i - 1] === '--config' ? [arg.split(/=(.*)/s).slice(0, 2)] : [])),
      ) as Record<string, string>;
      return { name: value('--topic')!, config };
    });
    const expected = expectedTopics();
    for (const topic of expected) {
      const match = created.find((entry) => entry.name === topic.name);
      expect(match, `create-topics.sh does not create ${topic.name}`).toBeDefined();
      expect(match!.config).toMatchObject(topic.config);
    }
    // Beyond the convention, only the gateway's audit trail (kept forever) may be created.
    const extra = created.map((entry) => entry.name).filter((name) => !expected.some((topic) => topic.name === name));
    expect(extra.filter((name) => name !== 'baton.audit')).toEqual([]);
    expect(created.find((entry) => entry.name === 'baton.audit')?.config).toEqual({ 'retention.ms': '-1' });
    expect(output).toContain(`all ${created.length} topics ready`);
  });
});
