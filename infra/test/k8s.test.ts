import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseKeyRing } from '@baton/field-encryption';
import { PERSONAL_DATA_READERS } from '../../scripts/lib/personal-data-keyring.js';
import { systemToolsFor } from '../../test/system-tools/suite.js';
import { expectedTopics, readRepoFile, run, serviceNames } from './repo.js';

/** Just the parts of Kubernetes objects the checks read. */
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

interface Probe {
  httpGet?: { path: string; port: number | string };
}

interface Container {
  name: string;
  image: string;
  env?: { name: string; value?: string; valueFrom?: any }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string }[];
}

const SERVICES = serviceNames();
const NAMESPACE = 'baton';
let objects: K8sObject[];
const tools = systemToolsFor('Kubernetes manifests test', ['kubectl']);

beforeAll(() => {
  tools.assertAvailable();
  const output = run('kubectl', ['kustomize', 'infra/k8s/overlays/local']);
  const documents = parseAllDocuments(output);
  for (const document of documents) {
    if (document.errors.length > 0) throw new Error(`kustomize output is not YAML: ${document.errors[0]!.message}`);
  }
  objects = documents.map((document) => document.toJS() as K8sObject).filter(Boolean);
});

function find(kind: string, name: string): K8sObject | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name);
}

function get(kind: string, name: string): K8sObject {
  const found = find(kind, name);
  if (found === undefined) throw new Error(`kubectl kustomize infra/k8s/overlays/local has no ${kind} ${name}`);
  return found;
}

function containerOf(deployment: K8sObject): Container {
  const containers = deployment.spec.template.spec.containers as Container[];
  expect(containers).toHaveLength(1);
  return containers[0]!;
}

/** The container port a probe or Service port names, as a number. */
function portNumber(container: Container, port: number | string): number | undefined {
  return typeof port === 'number' ? port : container.ports?.find((entry) => entry.name === port)?.containerPort;
}

function envValue(container: Container, name: string): { value?: string; valueFrom?: any } | undefined {
  return container.env?.find((entry) => entry.name === name);
}

describe.skipIf(tools.skip)('kubectl kustomize infra/k8s/overlays/local', () => {
  it('declares the namespace and puts every namespaced object in it', () => {
    get('Namespace', NAMESPACE);
    for (const object of objects.filter((entry) => entry.kind !== 'Namespace')) {
      expect(object.metadata.namespace, `${object.kind} ${object.metadata.name}`).toBe(NAMESPACE);
    }
  });

  it('deploys nothing of Baton that has no folder in services/', () => {
    const deployments = objects
      .filter(
        (object) => object.kind === 'Deployment' && object.metadata.labels?.['app.kubernetes.io/part-of'] === 'baton',
      )
      .map((object) => object.metadata.name)
      .sort();
    expect(deployments).toEqual(SERVICES);
  });

  describe.each(SERVICES)('%s', (name) => {
    it('has a Deployment running its image as SERVICE on port 8080', () => {
      const deployment = get('Deployment', name);
      const container = containerOf(deployment);
      expect(container.image).toMatch(new RegExp(`^baton/${name}:`));
      expect(envValue(container, 'SERVICE')?.value).toBe(name);
      expect(container.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
      expect(envValue(container, 'BATON_INSTANCE_ID')?.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
    });

    it('probes readiness on /readyz and liveness on /healthz, port 8080', () => {
      const container = containerOf(get('Deployment', name));
      expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(portNumber(container, container.readinessProbe!.httpGet!.port)).toBe(8080);
      expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(portNumber(container, container.livenessProbe!.httpGet!.port)).toBe(8080);
      expect(container.startupProbe?.httpGet?.path).toBe('/healthz');
    });

    it('sets resource requests and limits', () => {
      const { resources } = containerOf(get('Deployment', name));
      expect(Object.keys(resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(Object.keys(resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
    });

    it('runs as non-root on a read-only root filesystem, with /tmp writable', () => {
      const deployment = get('Deployment', name);
      const container = containerOf(deployment);
      expect(deployment.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
      expect(tmp).toBeDefined();
      const volume = (deployment.spec.template.spec.volumes as { name: string; emptyDir?: object }[]).find(
        (entry) => entry.name === tmp!.name,
      );
      expect(volume?.emptyDir).toBeDefined();
    });

    it('reads the shared environment from a ConfigMap that exists', () => {
      const container = containerOf(get('Deployment', name));
      const refs = (container.envFrom ?? []).map((entry) => entry.configMapRef?.name);
      expect(refs).toHaveLength(1);
      const config = get('ConfigMap', refs[0]!);
      expect(config.data).toMatchObject({
        KAFKA_BROKERS: 'baton-kafka-bootstrap:9092',
        SCHEMA_REGISTRY_URL: 'http://schema-registry:8081',
        BATON_TOPIC_PREFIX: 'baton',
        BATON_PARTITIONS: '6',
        BATON_REPLICATION_FACTOR: '1',
        HTTP_PORT: '8080',
        HTTP_HOST: '0.0.0.0',
      });
      // A stuck drain is given up, and logged, before the kubelet's SIGKILL cuts it short unexplained.
      const gracePeriodMs = 1_000 * (get('Deployment', name).spec.template.spec.terminationGracePeriodSeconds ?? 30);
      expect(Number(config.data?.BATON_SHUTDOWN_TIMEOUT_MS)).toBeLessThan(gracePeriodMs);
    });

    it('is annotated for Prometheus', () => {
      expect(get('Deployment', name).spec.template.metadata.annotations).toEqual({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '8080',
        'prometheus.io/path': '/metrics',
      });
    });

    it('has a Service selecting its pods on port 8080', () => {
      const deployment = get('Deployment', name);
      const service = get('Service', name);
      const podLabels = deployment.spec.template.metadata.labels as Record<string, string>;
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      expect(podLabels).toMatchObject(service.spec.selector as Record<string, string>);
      const [port] = service.spec.ports as { port: number; targetPort: string | number }[];
      expect(port?.port).toBe(8080);
      expect(portNumber(containerOf(deployment), port!.targetPort)).toBe(8080);
    });
  });

  it.each([
    ['ROUTING_TABLE', 'routing-table.yaml'],
    ['AUTHORIZATION_POLICY', 'authorization-policy.yaml'],
  ])('gives the router %s from a ConfigMap holding services/router/%s', (variable, file) => {
    const deployment = get('Deployment', 'router');
    const container = containerOf(deployment);
    const path = envValue(container, variable)?.value;
    expect(path).toBe(`/etc/baton/routing/${file}`);
    const mount = container.volumeMounts?.find((entry) => path!.startsWith(`${entry.mountPath}/`));
    expect(mount).toBeDefined();
    const volume = (deployment.spec.template.spec.volumes as { name: string; configMap?: { name: string } }[]).find(
      (entry) => entry.name === mount!.name,
    );
    const configMap = get('ConfigMap', volume!.configMap!.name);
    const key = path!.slice(mount!.mountPath.length + 1);
    // infra/k8s/base/<file> is a copy (kustomize reads no file outside its folder): keep them equal.
    expect(configMap.data?.[key], `copy services/router/${file} to infra/k8s/base/`).toBe(
      readRepoFile('services', 'router', file),
    );
  });

  it('gives the gateway BATON_API_KEYS from an example Secret that exists, each publisher bound to its senders', () => {
    const container = containerOf(get('Deployment', 'gateway'));
    const ref = envValue(container, 'BATON_API_KEYS')?.valueFrom?.secretKeyRef as { name: string; key: string };
    const secret = get('Secret', ref.name);
    expect(secret.metadata.annotations?.['baton.io/example']).toBe('true');
    const keys = Buffer.from(secret.data![ref.key]!, 'base64').toString('utf8');
    for (const entry of keys.split(',')) {
      expect(entry).toMatch(
        /^[^:]+:[^:]+:(viewer|publisher|operator|personal-data)(\+(viewer|publisher|operator|personal-data))*(:senders=[^:*]+)?$/,
      );
      if (entry.split(':')[2]!.split('+').includes('publisher'))
        expect(entry, 'a publisher names its senders').toMatch(/:senders=[^:*]+$/);
    }
  });

  it('runs the local schema registry BACKWARD compatible', () => {
    const container = containerOf(get('Deployment', 'schema-registry'));
    expect(envValue(container, 'SCHEMA_REGISTRY_SCHEMA_COMPATIBILITY_LEVEL')?.value).toBe('backward');
  });

  it('mounts the personal data key ring, an example Secret, into exactly the services npm start gives it to', () => {
    const holders = SERVICES.filter((name) =>
      (get('Deployment', name).spec.template.spec.volumes as { secret?: unknown }[]).some((volume) => volume.secret),
    );
    expect(holders).toEqual([...PERSONAL_DATA_READERS].sort());
    for (const name of SERVICES) {
      const deployment = get('Deployment', name);
      const container = containerOf(deployment);
      const file = envValue(container, 'BATON_PII_KEYRING_FILE')?.value;
      if (!PERSONAL_DATA_READERS.includes(name)) {
        expect(file, name).toBeUndefined();
        continue;
      }
      const volume = (deployment.spec.template.spec.volumes as { name: string; secret?: any }[]).find((v) => v.secret);
      const mount = container.volumeMounts?.find((entry) => entry.name === volume!.name);
      expect(file).toBe(`${mount!.mountPath}/keyring.json`);
      const secret = get('Secret', volume!.secret.secretName);
      expect(secret.metadata.annotations?.['baton.io/example']).toBe('true');
      const ring = Buffer.from(secret.data!['keyring.json']!, 'base64').toString('utf8');
      expect(parseKeyRing(ring, 'example').primaryId).toBe('pii-example-change-me');
    }
  });

  it('autoscales an agent Deployment that exists, on CPU', () => {
    const autoscalers = objects.filter((object) => object.kind === 'HorizontalPodAutoscaler');
    expect(autoscalers.length).toBeGreaterThanOrEqual(1);
    for (const hpa of autoscalers) {
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      const target = hpa.spec.scaleTargetRef as { apiVersion: string; kind: string; name: string };
      expect(target).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
      const deployment = get('Deployment', target.name);
      // The autoscaler owns the replica count.
      expect(deployment.spec.replicas).toBeUndefined();
      expect(hpa.spec.metrics).toContainEqual(
        expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }),
      );
      expect(hpa.spec.maxReplicas).toBeLessThanOrEqual(6);
    }
  });

  describe('KafkaUser resources', () => {
    it('give every service a SCRAM-SHA-512 user of its name, with simple authorization, on cluster baton', () => {
      const users = objects.filter((object) => object.kind === 'KafkaUser');
      expect(users.map((user) => user.metadata.name).sort()).toEqual(SERVICES);
      for (const user of users) {
        expect(user.apiVersion).toBe('kafka.strimzi.io/v1beta2');
        expect(user.metadata.labels?.['strimzi.io/cluster']).toBe('baton');
        expect(user.spec.authentication).toEqual({ type: 'scram-sha-512' });
        expect(user.spec.authorization.type).toBe('simple');
        expect(user.spec.authorization.acls.length).toBeGreaterThan(0);
      }
    });
  });

  describe('KafkaTopic resources', () => {
    const topics = () => objects.filter((object) => object.kind === 'KafkaTopic');
    const topicName = (topic: K8sObject) => (topic.spec.topicName as string | undefined) ?? topic.metadata.name;

    it('belong to the Strimzi cluster the overlay declares', () => {
      const clusters = objects.filter((object) => object.kind === 'Kafka').map((object) => object.metadata.name);
      expect(clusters).toEqual(['baton']);
      for (const topic of topics()) {
        expect(topic.apiVersion).toBe('kafka.strimzi.io/v1beta2');
        expect(topic.metadata.labels?.['strimzi.io/cluster']).toBe('baton');
        expect(topic.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
        expect(topic.spec.partitions).toBe(6);
        expect(topic.spec.replicas).toBe(1);
        expect(topic.spec.config['min.insync.replicas']).toBe(1);
      }
    });

    it.each(expectedTopics().map((topic) => [topic.name, topic] as const))('declares %s', (name, expected) => {
      const declared = topics().filter((topic) => topicName(topic) === name);
      expect(declared).toHaveLength(1);
      const config = Object.fromEntries(
        Object.entries(declared[0]!.spec.config as Record<string, unknown>).map(([key, value]) => [key, String(value)]),
      );
      expect(config).toMatchObject(expected.config);
    });

    it('declares each topic once', () => {
      const names = topics().map(topicName);
      expect(new Set(names).size).toBe(names.length);
    });
  });
});
