import { expect, inject, test } from 'vitest';
import { SchemaRegistryClient, type AvroRecordSchema } from '@baton/wire';
import { uniqueName } from './helpers/index.js';

const registryUrl = inject('schemaRegistryUrl');
const registry = new SchemaRegistryClient({ url: registryUrl });

const HANDOFF_V1: AvroRecordSchema = {
  type: 'record',
  name: 'Handoff',
  namespace: 'baton.test',
  fields: [
    { name: 'task_id', type: 'string' },
    { name: 'attempt', type: 'int' },
  ],
};

/** Adds a field with a default: a v2 reader can still read v1 records. */
const HANDOFF_V2_COMPATIBLE: AvroRecordSchema = {
  ...HANDOFF_V1,
  fields: [...HANDOFF_V1.fields, { name: 'priority', type: ['null', 'string'], default: null }],
};

/** Adds a required field without a default: a v2 reader cannot read v1 records. */
const HANDOFF_V2_INCOMPATIBLE: AvroRecordSchema = {
  ...HANDOFF_V1,
  fields: [...HANDOFF_V1.fields, { name: 'deadline_ms', type: 'long' }],
};

async function getJson(path: string): Promise<unknown> {
  const response = await fetch(`${registryUrl}${path}`);
  expect(response.status, `GET ${path}`).toBe(200);
  return response.json();
}

test('an Avro schema registered with BACKWARD compatibility comes back by id, and a compatible change is accepted', async () => {
  const subject = uniqueName('baton.test.compatible');

  const id = await registry.register(HANDOFF_V1, subject, 'BACKWARD');

  const stored = (await getJson(`/schemas/ids/${id}`)) as { schema: string };
  expect(JSON.parse(stored.schema)).toEqual(HANDOFF_V1);
  const type = await registry.avroType(id);
  expect(type.name).toBe('baton.test.Handoff');
  expect(type.fromBuffer(type.toBuffer({ task_id: 't-1', attempt: 2 }))).toEqual({ task_id: 't-1', attempt: 2 });
  expect(await getJson(`/config/${subject}`)).toEqual({ compatibilityLevel: 'BACKWARD' });
  // Registering the same schema again is not a new version.
  expect(await registry.register(HANDOFF_V1, subject, 'BACKWARD')).toBe(id);

  const v2 = await registry.register(HANDOFF_V2_COMPATIBLE, subject, 'BACKWARD');

  expect(v2).not.toBe(id);
  expect(await getJson(`/subjects/${subject}/versions`)).toEqual([1, 2]);
});

test('a change that breaks BACKWARD compatibility is refused and leaves the subject as it was', async () => {
  const subject = uniqueName('baton.test.incompatible');
  const id = await registry.register(HANDOFF_V1, subject, 'BACKWARD');

  await expect(registry.register(HANDOFF_V2_INCOMPATIBLE, subject, 'BACKWARD')).rejects.toMatchObject({
    code: 'SCHEMA_INCOMPATIBLE',
    retriable: false,
  });

  expect(await getJson(`/subjects/${subject}/versions`)).toEqual([1]);
  expect(((await getJson(`/subjects/${subject}/versions/latest`)) as { id: number }).id).toBe(id);
});

test('an unreachable registry is a retriable REGISTRY_UNAVAILABLE', async () => {
  const unreachable = new SchemaRegistryClient({ url: 'http://127.0.0.1:9/apis/ccompat/v7' });
  await expect(unreachable.register(HANDOFF_V1, uniqueName('baton.test.down'), 'BACKWARD')).rejects.toMatchObject({
    code: 'REGISTRY_UNAVAILABLE',
    retriable: true,
  });
});

test('instances starting at once register one schema under a new subject: each gets the same id, none is refused', async () => {
  // What `docker compose up` does on a fresh registry: every service registers the handoff schema
  // at the same moment. Apicurio answered all but one of the concurrent compatibility settings with
  // HTTP 409 ("a rule named COMPATIBILITY already exists"), which stopped those services.
  const subject = uniqueName('baton.test.concurrent');
  const clients = Array.from({ length: 8 }, () => new SchemaRegistryClient({ url: registryUrl }));

  const ids = await Promise.all(clients.map((client) => client.register(HANDOFF_V1, subject, 'BACKWARD')));

  expect(new Set(ids).size).toBe(1);
  // Racing, Apicurio may list the same schema as two versions of the subject; they share the id.
  expect(((await getJson(`/subjects/${subject}/versions/latest`)) as { id: number }).id).toBe(ids[0]);
  expect(await getJson(`/config/${subject}`)).toEqual({ compatibilityLevel: 'BACKWARD' });
});
