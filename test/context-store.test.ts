import { createHash, randomBytes } from 'node:crypto';
import { afterEach, expect, inject, test } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import {
  CONTEXT_HEADERS,
  ContextStore,
  createKafka,
  fetchEndOffsets,
  RecordProducer,
  type ContextStoreOptions,
  type StoredContextRef,
} from '@baton/kafka';
import { createTestTopic, uniqueName } from './helpers/index.js';
import { rawKafkajs } from './helpers/raw-kafkajs.js';

const brokers = inject('kafkaBrokers');
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const MIB = 1024 * 1024;
const URI = /^kafka:\/\/([^/]+)\/(\d+)\/(\d+)$/;

/** A store on a fresh 3-partition topic of its own. */
async function openStore(options: Partial<ContextStoreOptions> = {}): Promise<{ store: ContextStore; topic: string }> {
  const topic = await createTestTopic(brokers, 'context-store', 3);
  const kafka = createKafka({ brokers, clientId: uniqueName('context-store') });
  const store = new ContextStore({ kafka, topic, ...options });
  cleanups.push(() => store.close());
  return { store, topic };
}

function locationOf(ref: StoredContextRef): { topic: string; partition: number; offset: number } {
  const [, topic = '', partition = '', offset = ''] = URI.exec(ref.uri) ?? [];
  return { topic, partition: Number(partition), offset: Number(offset) };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

test('a 2.5 MiB context, over the broker’s 1 MiB record limit, round-trips byte-exactly in five chunks of one partition', async () => {
  const { store, topic } = await openStore();
  const bytes = randomBytes(2.5 * MIB);

  const putStart = performance.now();
  const ref = await store.put(bytes, { key: 'task-large', contentType: 'application/octet-stream' });
  const putMs = performance.now() - putStart;

  expect(ref).toEqual({
    uri: expect.stringMatching(URI),
    sha256: sha256(bytes),
    size_bytes: 2.5 * MIB,
    content_type: 'application/octet-stream',
  });
  const { partition } = locationOf(ref);
  expect(locationOf(ref)).toEqual({ topic, partition, offset: 0 });
  // Five records (512 KiB each), all in the key's partition, none anywhere else.
  expect(await fetchEndOffsets(createKafka({ brokers, clientId: uniqueName('context-store-offsets') }), topic)).toEqual(
    new Map([[partition, 5n]]),
  );

  const getStart = performance.now();
  const fetched = await store.get(ref);
  const getMs = performance.now() - getStart;

  expect(fetched.equals(bytes)).toBe(true);
  console.info(`context store, 2.5 MiB: put ${putMs.toFixed(0)} ms, get ${getMs.toFixed(0)} ms`);
});

test('a small context round-trips in one chunk whose headers describe it', async () => {
  const { store, topic } = await openStore();
  const bytes = Buffer.from(JSON.stringify({ conversation: [{ role: 'user', text: 'my router blinks red' }] }));

  const ref = await store.put(bytes, { key: 'task-small', contentType: 'application/json' });

  expect(ref).toEqual({
    uri: expect.stringMatching(URI),
    sha256: sha256(bytes),
    size_bytes: bytes.length,
    content_type: 'application/json',
  });
  const { partition } = locationOf(ref);
  expect(ref.uri).toBe(`kafka://${topic}/${partition}/0`);
  expect(await fetchEndOffsets(createKafka({ brokers, clientId: uniqueName('context-store-offsets') }), topic)).toEqual(
    new Map([[partition, 1n]]),
  );
  expect((await store.get(ref)).equals(bytes)).toBe(true);
});

test('two puts on the same key, their chunks interleaved in one partition, both come back right', async () => {
  const { store } = await openStore({ chunkBytes: 64 * 1024 });
  // Two puts at once interleave their chunks as their sends reach the producer, nearly always: the
  // second's first chunk right after the first's. Whether they did is read from the offsets, and a
  // pair that did not (the second put's sends all queued behind the first's) is tried again.
  for (let attempt = 1; ; attempt += 1) {
    const first = randomBytes(300 * 1024); // 5 chunks
    const second = randomBytes(200 * 1024); // 4 chunks
    const key = `task-shared-${attempt}`;
    const [firstRef, secondRef] = await Promise.all([
      store.put(first, { key, contentType: 'application/octet-stream' }),
      store.put(second, { key, contentType: 'application/octet-stream' }),
    ]);
    expect(locationOf(firstRef).partition).toBe(locationOf(secondRef).partition);
    const [firstBack, secondBack] = await Promise.all([store.get(firstRef), store.get(secondRef)]);
    expect(firstBack.equals(first)).toBe(true);
    expect(secondBack.equals(second)).toBe(true);
    if (Math.abs(locationOf(firstRef).offset - locationOf(secondRef).offset) === 1) return;
    if (attempt === 5) throw new Error('in 5 attempts, two puts at once never interleaved their chunks');
  }
});

test('a reference whose sha256 or size was tampered with is refused with CONTEXT_INTEGRITY_FAILED', async () => {
  const { store } = await openStore();
  const ref = await store.put(randomBytes(1000), { key: 'task-tampered', contentType: 'application/octet-stream' });

  const wrongDigest = await rejection(store.get({ ...ref, sha256: sha256(Buffer.from('something else')) }));
  expect(wrongDigest).toMatchObject({
    code: 'CONTEXT_INTEGRITY_FAILED',
    retriable: false,
    path: '/payload/context_ref/sha256',
  });

  const wrongSize = await rejection(store.get({ ...ref, size_bytes: 999 }));
  expect(wrongSize).toMatchObject({
    code: 'CONTEXT_INTEGRITY_FAILED',
    path: '/payload/context_ref/size_bytes',
    details: { expected: 999, actual: 1000 },
  });
});

test('a uri past the partition’s end, or below its low watermark, gives CONTEXT_NOT_FOUND', async () => {
  const { store, topic } = await openStore();
  const ref = await store.put(Buffer.from('one chunk'), { key: 'task-gone', contentType: 'text/plain' });
  const { partition } = locationOf(ref);

  for (const offset of [1, 1_000_000]) {
    const error = await rejection(store.get({ ...ref, uri: `kafka://${topic}/${partition}/${offset}` }));
    expect(hasErrorCode(error, 'CONTEXT_NOT_FOUND')).toBe(true);
    expect(error).toMatchObject({ retriable: false, path: '/payload/context_ref/uri' });
    expect((error as Error).message).toContain(`offset ${offset} is past the partition's end 1`);
  }

  // What retention does to an old context: the records before the low watermark are gone.
  const admin = rawKafkajs(brokers, uniqueName('context-store-admin')).admin();
  await admin.connect();
  cleanups.push(() => admin.disconnect());
  // kafkajs's deleteTopicRecords reads the topic's leaders from metadata it does not load itself.
  await admin.fetchTopicMetadata({ topics: [topic] });
  await admin.deleteTopicRecords({ topic, partitions: [{ partition, offset: '1' }] });
  const removed = await rejection(store.get(ref));
  expect(removed).toMatchObject({ code: 'CONTEXT_NOT_FOUND', details: { lowWatermark: '1', highWatermark: '1' } });
  expect((removed as Error).message).toContain('below the low watermark 1: removed by retention');
});

test('chunks missing before the partition’s end give CONTEXT_NOT_FOUND rather than a wait', async () => {
  const { store, topic } = await openStore({ fetchTimeoutMs: 20_000 });
  const kafka = createKafka({ brokers, clientId: uniqueName('context-store-writer') });
  const producer = new RecordProducer(kafka);
  cleanups.push(() => producer.disconnect());
  const headers = (chunk: number): Record<string, string> => ({
    [CONTEXT_HEADERS.id]: 'a-put-that-died',
    [CONTEXT_HEADERS.chunk]: String(chunk),
    [CONTEXT_HEADERS.chunks]: '3',
    [CONTEXT_HEADERS.sha256]: sha256(Buffer.from('abc')),
    [CONTEXT_HEADERS.contentType]: 'text/plain',
  });
  // Chunks 0 and 2 of 3, and a record of another writer after them: chunk 1 never comes.
  await producer.send([
    { topic, partition: 0, key: 'task-torn', value: 'a', headers: headers(0) },
    { topic, partition: 0, key: 'task-torn', value: 'c', headers: headers(2) },
    { topic, partition: 0, key: 'task-other', value: 'not a chunk' },
  ]);

  const ref = {
    uri: `kafka://${topic}/0/0`,
    sha256: sha256(Buffer.from('abc')),
    size_bytes: 3,
    content_type: 'text/plain',
  };
  const error = await rejection(store.get(ref));
  expect(error).toMatchObject({ code: 'CONTEXT_NOT_FOUND', retriable: false });
  expect((error as Error).message).toContain('chunks 1 of 3 are missing before the partition');

  // A uri naming a chunk other than a put's first names no stored context.
  const middle = await rejection(store.get({ ...ref, uri: `kafka://${topic}/0/1` }));
  expect(middle).toMatchObject({ code: 'CONTEXT_NOT_FOUND' });
  expect((middle as Error).message).toContain('is not the first chunk of a stored context');
});

test('a malformed uri, or one naming another topic, gives CONTEXT_REF_INVALID', async () => {
  const { store, topic } = await openStore();
  const ref = { uri: '', sha256: '0'.repeat(64), size_bytes: 0, content_type: 'text/plain' };

  for (const uri of [
    's3://bucket/context.json',
    `kafka://${topic}/0`,
    `kafka://${topic}/zero/0`,
    'kafka://baton.events/0/0',
  ]) {
    const error = await rejection(store.get({ ...ref, uri }));
    expect(hasErrorCode(error, 'CONTEXT_REF_INVALID'), uri).toBe(true);
    expect(error).toMatchObject({ retriable: false, path: '/payload/context_ref/uri', details: { uri } });
  }
});

test('a fetch that cannot reach a broker gives up with KAFKA_UNAVAILABLE at fetchTimeoutMs', async () => {
  // Port 1 on the loopback: nothing listens there.
  const kafka = createKafka({
    brokers: ['127.0.0.1:1'],
    clientId: uniqueName('context-store-down'),
    logLevel: 'nothing',
  });
  const store = new ContextStore({ kafka, topic: 'baton.contexts', fetchTimeoutMs: 1_000 });
  cleanups.push(() => store.close());

  const started = performance.now();
  const error = await rejection(
    store.get({ uri: 'kafka://baton.contexts/0/0', sha256: '0'.repeat(64), size_bytes: 0, content_type: 'text/plain' }),
  );
  const elapsedMs = performance.now() - started;

  expect(error).toMatchObject({ code: 'KAFKA_UNAVAILABLE', retriable: true });
  expect(elapsedMs).toBeGreaterThanOrEqual(990);
  expect(elapsedMs).toBeLessThan(5_000);
});
