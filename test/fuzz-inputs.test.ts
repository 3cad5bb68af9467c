import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKafka, RecordProducer, type ProducerRecord } from '@baton/kafka';
import { buildHandoff, type HandoffMessage } from '@baton/protocol';
import {
  startBatonRig,
  uniqueName,
  waitFor,
  type BatonRig,
  type RecordCollector,
  type ServiceProcess,
} from './helpers/index.js';
import {
  INVALID_UTF8,
  applyJsonMutation,
  flipBits,
  insertAfter,
  jsonMutation,
  nestedText,
  overwriteText,
  type Json,
} from './helpers/fuzz-inputs.js';

/**
 * Malformed inputs drawn by fast-check from a seed, thrown at the router's inbound topic (raw record
 * values) and at the gateway's POST /v1/handoffs (request bodies), with valid handoffs among them.
 * Each malformed input must end as a dead letter with its code or a 400 with a code (and a path
 * once the body is JSON); each valid one must be routed; the router and the gateway must neither
 * exit nor stop being ready. FUZZ_SEED picks the inputs, FUZZ_RUNS how many (both paths together);
 * `npm run fuzz` runs many more.
 */

const require = createRequire(import.meta.url);
const brokers = inject('kafkaBrokers');

function envInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not "${raw}"`);
  return value;
}

const SEED = envInteger('FUZZ_SEED', 20261124);
const RUNS = envInteger('FUZZ_RUNS', 10_000);
// Four in ten to the inbound topic, six in ten to the HTTP API, whose bodies come in more kinds.
const RAW_RUNS = Math.ceil(RUNS * 0.4);
const HTTP_RUNS = RUNS - RAW_RUNS;
/** One valid handoff after every VALID_EVERY malformed inputs, on each path. */
const VALID_EVERY = 50;
/** A progress line every PROGRESS_EVERY inputs, so a long run shows it is moving. */
const PROGRESS_EVERY = 2_000;
/** Requests in flight at once: enough to keep the gateway busy on two cores, not to starve the router. */
const HTTP_CONCURRENCY = 8;
/** Bytes of record values per produce request: well under the broker's 1 MB message.max.bytes. */
const PRODUCE_BATCH_BYTES = 512 * 1_024;
/** Fastify's default bodyLimit, which the gateway keeps. */
const BODY_LIMIT = 1_048_576;
/**
 * Measured at about 1 ms per raw input and 4 ms per request on two cores. The bounds allow many
 * times that, for a busy machine, and grow with FUZZ_RUNS, so `npm run fuzz` gets its time too;
 * a service that stalls still fails the test rather than hanging it.
 */
const RAW_TIMEOUT_MS = 60_000 + RAW_RUNS * 20;
const HTTP_TIMEOUT_MS = 60_000 + HTTP_RUNS * 10;
const SINK = 'sink_agent';
const TOKEN = 'fuzz-publisher-token';
const FUZZ_ID = 'fuzz-id';
const VALID_ID = 'fuzz-valid';
/** A message id for a body the gateway gives its own. */
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

const fixture = (): HandoffMessage =>
  structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as HandoffMessage;

/** The seed's example as a valid handoff for the sink, with the ids given: a draw makes the same bytes every run. */
function validHandoff(messageId: string, taskId: string): HandoffMessage {
  const seed = fixture();
  return buildHandoff({
    ...seed,
    metadata: {
      ...seed.metadata,
      message_id: messageId,
      task_id: taskId,
      recipient_id: SINK,
      expiration_time: '2999-01-01T00:00:00.000Z',
    },
  } as never) as HandoffMessage;
}

/** The seed's example as a client posts it: the gateway fills message_id and timestamp. */
function validBody(taskId: string): Json {
  const body = JSON.parse(JSON.stringify(validHandoff(PLACEHOLDER_ID, taskId))) as { metadata: Record<string, Json> };
  delete body.metadata.message_id;
  delete body.metadata.timestamp;
  return body as Json;
}

/** One fuzzed input and what it must end as: an exact outcome, any dead letter, or whatever is coded. */
interface FuzzInput<T> {
  kind: string;
  value: T;
  /**
   * `DLQ <code>`, `400 <code>` or `202` when only that will do; 'dead letter' for a dead letter with
   * any code, 'refused' for a 400 with any code; unset when routing it is as right as refusing it.
   */
  expected?: string;
}

/** One of `weights`' names, drawn that often relative to the others. */
function weighted<K extends string>(weights: Record<K, number>): fc.Arbitrary<K> {
  return fc.oneof(
    ...Object.entries<number>(weights).map(([kind, weight]) => ({ arbitrary: fc.constant(kind as K), weight })),
  );
}

/** What went wrong inside a service, for a failure message: its last warnings and errors. */
function troubles(service: ServiceProcess): string[] {
  return service.logs
    .filter((entry) => entry.level === 'warn' || entry.level === 'error' || entry.level === 'fatal')
    .slice(-10)
    .map((entry) => JSON.stringify(entry).slice(0, 600));
}

/** Prints a line each time `done` passes another PROGRESS_EVERY. */
function progressOf(label: string, total: number): (done: number) => void {
  let reported = 0;
  return (done) => {
    while (done >= reported + PROGRESS_EVERY) {
      reported += PROGRESS_EVERY;
      console.log(`fuzz ${label}: ${reported}/${total}`);
    }
  };
}

/** Counts as aligned lines, most frequent first. */
function countLines(title: string, values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const width = Math.max(...[...counts.keys()].map((key) => key.length));
  const lines = [...counts]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([value, count]) => `  ${value.padEnd(width)} ${String(count).padStart(7)}`);
  return `${title}\n${lines.join('\n')}`;
}

function meets(outcome: string, expected: string | undefined): boolean {
  if (expected === undefined) return true;
  if (expected === 'dead letter') return outcome.startsWith('DLQ ');
  if (expected === 'refused') return outcome.startsWith('400 ');
  return outcome === expected;
}

/** The start of an input, for a failure message: record values in hex, request bodies as text. */
function excerpt(bytes: Buffer, encoding: 'hex' | 'utf8'): string {
  const shown = bytes.subarray(0, 160).toString(encoding);
  return bytes.length <= 160 ? shown : `${shown}… (${bytes.length} bytes)`;
}

describe(`fuzzed inputs (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS})`, () => {
  let rig: BatonRig;
  let router: ServiceProcess;
  let gateway: ServiceProcess;
  let dlq: RecordCollector;
  let sink: RecordCollector;
  let workDir: string;
  const exits: string[] = [];

  beforeAll(async () => {
    console.log(`fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} (raw ${RAW_RUNS}, http ${HTTP_RUNS})`);
    workDir = mkdtempSync(join(tmpdir(), 'baton-fuzz-'));
    const table = join(workDir, 'routing-table.yaml');
    // Every handoff that passes goes to one inbox, whatever its recipient says.
    writeFileSync(table, `version: 1\nagents: [${SINK}]\nrules: []\ndefault: ${SINK}\n`);
    rig = await startBatonRig({ name: 'fz', agents: [], routerEnv: { ROUTING_TABLE: table } });
    router = rig.services.router as ServiceProcess;
    gateway = await rig.addProcess('gateway', 'services/gateway/src/main.ts', {
      BATON_API_KEYS: `fuzz:${TOKEN}:publisher`,
    });
    for (const [name, service] of Object.entries(rig.services)) {
      service.child.once('exit', (code, signal) => exits.push(`${name} exited with ${code ?? signal}`));
    }
    dlq = await rig.collect(`${rig.topics.inbound}.dlq`);
    sink = await rig.collect(rig.topics.agentInbox(SINK));
  });

  afterAll(async () => {
    const codes = await rig?.stop();
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
    expect(codes).toEqual({ router: 0, gateway: 0 });
  });

  /** Both services still running and ready: the end of each path. */
  async function expectServicesUp(): Promise<void> {
    expect(exits).toEqual([]);
    expect((await fetch(`${router.address}/readyz`)).status).toBe(200);
    expect((await fetch(`${gateway.address}/readyz`)).status).toBe(200);
  }

  it(
    'dead-letters every malformed record on the inbound topic with its code, and routes every valid one',
    async () => {
      const started = Date.now();
      const { codec, topics } = rig;
      const framedOf = (messageId: string, index: number) =>
        codec.encode(validHandoff(messageId, `fuzz-raw-${SEED}-${index}`) as never);
      const schemaId = framedOf(randomUUID(), 0).readInt32BE(1);
      const draws = fc.sample(
        fc.record({
          kind: weighted({
            'random bytes': 2,
            truncated: 2,
            'bit-flipped': 3,
            'unknown schema id': 1,
            'nearby schema id': 1,
            'bad magic byte': 1,
            mutated: 6,
            'invalid UTF-8': 1,
            'deep JSON': 1,
          }),
          // Its own message id, so an input that decodes is routed or dead-lettered under it alone.
          messageId: fc.uuid({ version: 4 }),
          bytes: fc.uint8Array({ maxLength: 256 }),
          cut: fc.nat(),
          flips: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
          // No registry of a test run holds ids this high; a negative id is what a set top bit reads as.
          unknownId: fc.oneof(fc.integer({ min: 2 ** 24, max: 2 ** 31 - 1 }), fc.integer({ min: -(2 ** 31), max: -1 })),
          // The ids of the other schemas registered around the handoff's: outcome, lifecycle, staged context.
          nearby: fc.integer({ min: -8, max: 8 }).filter((offset) => offset !== 0),
          mutation: jsonMutation,
          depth: fc.integer({ min: 4, max: 20_000 }),
        }),
        { seed: SEED, numRuns: RAW_RUNS },
      );
      const inputOf = (draw: (typeof draws)[number], index: number): FuzzInput<Buffer> => {
        const framed = framedOf(draw.messageId, index);
        switch (draw.kind) {
          case 'random bytes':
            return { kind: draw.kind, value: Buffer.from(draw.bytes), expected: 'dead letter' };
          case 'truncated': {
            const cut = draw.cut % framed.length;
            // Shorter than its header, or an Avro body that ends too soon.
            return {
              kind: draw.kind,
              value: framed.subarray(0, cut),
              expected: cut < 5 ? 'DLQ WIRE_FORMAT_INVALID' : 'DLQ WIRE_BODY_INVALID',
            };
          }
          case 'bit-flipped':
            return { kind: draw.kind, value: flipBits(framed, draw.flips) };
          case 'unknown schema id':
            framed.writeInt32BE(draw.unknownId, 1);
            return { kind: draw.kind, value: framed, expected: 'DLQ WIRE_UNKNOWN_SCHEMA_ID' };
          case 'nearby schema id':
            framed.writeInt32BE(Math.max(0, schemaId + draw.nearby), 1);
            return { kind: draw.kind, value: framed };
          case 'bad magic byte':
            framed[0] = 1 + (draw.cut % 255);
            return { kind: draw.kind, value: framed, expected: 'DLQ WIRE_FORMAT_INVALID' };
          case 'invalid UTF-8':
            // Same length, so the Avro string still frames: only its bytes are not UTF-8. The router
            // reads them as U+FFFD, as Node's decoder does, and forwards the record byte for byte.
            return {
              kind: draw.kind,
              value: overwriteText(framed, 'John Doe', INVALID_UTF8[draw.cut % INVALID_UTF8.length]!),
              expected: 'routed',
            };
          case 'deep JSON': {
            // payload.data travels as JSON text in an Avro string: written with a placeholder of
            // the same length, then overwritten, since no encoder writes JSON nested this deep.
            const deep = nestedText(draw.depth);
            const placeholder = { pad: 'x'.repeat(deep.length - '{"pad":""}'.length) };
            const message = validHandoff(draw.messageId, `fuzz-raw-${SEED}-${index}`);
            const bytes = codec.encode({ ...message, payload: { ...message.payload, data: placeholder } } as never);
            return {
              kind: draw.kind,
              value: overwriteText(bytes, JSON.stringify(placeholder), Buffer.from(deep)),
              expected: 'DLQ VALIDATION_FAILED',
            };
          }
          case 'mutated': {
            const text = applyJsonMutation(
              validHandoff(draw.messageId, `fuzz-raw-${SEED}-${index}`) as unknown as Json,
              draw.mutation,
            );
            try {
              return { kind: `mutated (${draw.mutation.action})`, value: codec.encode(JSON.parse(text)) };
            } catch {
              // What Avro cannot even write is sent as the JSON it is: a record with no wire framing.
              return {
                kind: `mutated (${draw.mutation.action}), sent as JSON`,
                value: Buffer.from(text),
                expected: 'DLQ WIRE_FORMAT_INVALID',
              };
            }
          }
        }
      };

      const inputs: Omit<FuzzInput<Buffer>, 'value'>[] = [];
      const excerpts: string[] = [];
      const valids: string[] = [];
      const producer = new RecordProducer(createKafka({ brokers, clientId: uniqueName('fuzz-raw') }));
      const sent = progressOf('raw sent', RAW_RUNS);
      // Made and sent a batch at a time, so a long run never holds every value at once, and each
      // request stays under the broker's 1 MB limit on a record batch.
      let batch: ProducerRecord[] = [];
      let batchBytes = 0;
      const add = async (record: ProducerRecord & { value: Buffer }) => {
        if (batchBytes + record.value.length > PRODUCE_BATCH_BYTES) {
          await producer.send(batch);
          sent(inputs.length);
          batch = [];
          batchBytes = 0;
        }
        batch.push(record);
        batchBytes += record.value.length;
      };
      for (const [index, draw] of draws.entries()) {
        const { value, ...input } = inputOf(draw, index);
        inputs.push(input);
        excerpts.push(excerpt(value, 'hex'));
        await add({ topic: topics.inbound, key: `fuzz-${index}`, value, headers: { [FUZZ_ID]: String(index) } });
        if (index % VALID_EVERY === VALID_EVERY - 1) {
          const messageId = randomUUID();
          valids.push(messageId);
          await add({
            topic: topics.inbound,
            key: `fuzz-valid-${index}`,
            value: framedOf(messageId, index),
            headers: { [VALID_ID]: messageId },
          });
        }
      }
      await producer.send(batch);
      sent(inputs.length);
      await producer.disconnect();

      // Every place each input ended: an input seen twice, or both routed and dead-lettered, is lost exactly-once.
      const endings: string[][] = inputs.map(() => []);
      const validEndings = new Map<string, string[]>(valids.map((id) => [id, []]));
      let readLetters = 0;
      let readRouted = 0;
      const read = () => {
        for (; readLetters < dlq.records.length; readLetters += 1) {
          const { headers } = dlq.records[readLetters]!;
          const code = headers['baton.dlq.error.code'];
          const ending = typeof code === 'string' && code !== '' ? `DLQ ${code}` : 'DLQ without a code';
          const index = headers[FUZZ_ID];
          if (typeof index === 'string') endings[Number(index)]?.push(ending);
          const valid = headers[VALID_ID];
          if (typeof valid === 'string') validEndings.get(valid)?.push(ending);
        }
        for (; readRouted < sink.records.length; readRouted += 1) {
          const { headers } = sink.records[readRouted]!;
          const index = headers[FUZZ_ID];
          if (typeof index === 'string') endings[Number(index)]?.push('routed');
          const valid = headers[VALID_ID];
          if (typeof valid === 'string') validEndings.get(valid)?.push('routed');
        }
        return endings.filter((ending) => ending.length > 0).length;
      };
      const settled = progressOf('raw settled', RAW_RUNS);
      try {
        await waitFor(
          () => {
            const done = read();
            settled(done);
            return (
              exits.length > 0 ||
              (done === inputs.length && [...validEndings.values()].every((ending) => ending.length > 0))
            );
          },
          { description: `an ending for each of ${inputs.length} records`, timeoutMs: RAW_TIMEOUT_MS, intervalMs: 250 },
        );
      } catch (error) {
        // The assertions below name what never ended; the timeout alone would not.
        console.log(String(error));
      }

      const outcomes = endings.map((ending) => (ending.length === 1 ? ending[0]! : `[${ending.join(', ')}]`));
      console.log(
        `fuzz raw: ${inputs.length} malformed + ${valids.length} valid records in ${Date.now() - started} ms\n` +
          `${countLines('by outcome', outcomes)}\n${countLines(
            'by kind',
            inputs.map((input) => input.kind),
          )}`,
      );
      expect(exits).toEqual([]);
      // Exactly one ending each, a coded dead letter or routed, and the one expected where it is known.
      const wrong = inputs
        .map((input, index) => ({ index, ...input, outcome: outcomes[index]!, value: excerpts[index] }))
        .filter(({ outcome, expected }) => !/^(DLQ [A-Z_]+|routed)$/.test(outcome) || !meets(outcome, expected));
      expect(
        wrong.slice(0, 10),
        `${wrong.length} records ended wrongly; the router's troubles:\n${troubles(router).join('\n')}`,
      ).toEqual([]);
      expect([...validEndings].filter(([, ending]) => ending.join() !== 'routed')).toEqual([]);
      await expectServicesUp();
    },
    RAW_TIMEOUT_MS + 60_000,
  );

  it(
    'answers every malformed POST /v1/handoffs with a 400 and a code, and routes every handoff it accepts',
    async () => {
      const started = Date.now();
      const taskId = (index: number) => `fuzz-http-${SEED}-${index}`;
      const validText = (index: number) => JSON.stringify(validBody(taskId(index)));
      const draws = fc.sample(
        fc.record({
          // A body over 1 MiB costs the gateway little but the test much (it is made and sent): rare.
          kind: weighted({
            mutated: 12,
            'not JSON': 3,
            truncated: 3,
            'random bytes': 3,
            'invalid UTF-8': 2,
            'other JSON': 3,
            'over 1 MiB': 1,
          }),
          mutation: jsonMutation,
          text: fc.string({ maxLength: 64 }),
          bytes: fc.uint8Array({ maxLength: 128 }),
          cut: fc.nat(),
          json: fc.jsonValue({ maxDepth: 3 }),
        }),
        // Its own stream of draws, apart from the raw path's.
        { seed: SEED + 1, numRuns: HTTP_RUNS },
      );
      const inputOf = (draw: (typeof draws)[number], index: number): FuzzInput<Buffer> => {
        const valid = validText(index);
        switch (draw.kind) {
          case 'mutated':
            return {
              kind: `mutated (${draw.mutation.action})`,
              value: Buffer.from(applyJsonMutation(JSON.parse(valid) as Json, draw.mutation)),
            };
          case 'not JSON':
            return { kind: draw.kind, value: Buffer.from(`{${draw.text}`), expected: 'refused' };
          case 'truncated':
            return {
              kind: draw.kind,
              value: Buffer.from(valid.slice(0, draw.cut % valid.length)),
              expected: '400 REQUEST_INVALID',
            };
          case 'random bytes':
            return { kind: draw.kind, value: Buffer.from(draw.bytes), expected: 'refused' };
          case 'invalid UTF-8':
            // JSON must be UTF-8: the bytes are refused before they are read as text.
            return {
              kind: draw.kind,
              value: insertAfter(
                Buffer.from(valid),
                '"historical_data_summary":"',
                INVALID_UTF8[draw.cut % INVALID_UTF8.length]!,
              ),
              expected: '400 REQUEST_INVALID',
            };
          case 'other JSON':
            return { kind: draw.kind, value: Buffer.from(JSON.stringify(draw.json)), expected: 'refused' };
          case 'over 1 MiB':
            // Past Fastify's body limit: refused before it is read as JSON.
            return {
              kind: draw.kind,
              value: Buffer.from(
                applyJsonMutation(JSON.parse(valid) as Json, {
                  ...draw.mutation,
                  action: 'huge',
                  kib: 1_025 + (draw.cut % 512),
                }),
              ),
              expected: '400 REQUEST_INVALID',
            };
        }
      };
      // What is posted in which order: each draw, and a valid body after every VALID_EVERY of them.
      // Bodies are made as they are posted, so a long run never holds them all (some are over 1 MiB).
      const plan: { index: number; isValid: boolean }[] = [];
      draws.forEach((_, index) => {
        plan.push({ index, isValid: false });
        if (index % VALID_EVERY === VALID_EVERY - 1) plan.push({ index, isValid: true });
      });

      /**
       * Whether the gateway's JSON parser reads `body`. A body that is JSON can only be refused for
       * something in it, so its 400 names where (`path`, a JSON Pointer, '' for the whole body); one
       * that is not JSON is refused before anything in it has a place, so a code and a message are
       * all its 400 can carry. Not JSON to the gateway: a body over its limit, and one with a key
       * Fastify refuses as prototype poisoning (`__proto__`, `constructor.prototype`), which
       * fast-check's strings include on purpose.
       */
      const isJson = (body: Buffer) => {
        if (body.length > BODY_LIMIT) return false;
        try {
          JSON.parse(body.toString('utf8'), (key, value) => {
            const poisoned =
              key === '__proto__' || (key === 'constructor' && Object.hasOwn(Object(value), 'prototype'));
            if (poisoned) throw new Error('prototype poisoning');
            return value;
          });
          return true;
        } catch {
          return false;
        }
      };
      interface Answer {
        status: number;
        body: any;
        text: string;
      }
      const outcomeOf = (answer: Answer) =>
        answer.status === 202 ? '202' : `${answer.status} ${answer.body?.error?.code ?? 'without a code'}`;
      /** Why `answer` is wrong for `input`, or undefined when it is right. */
      const fault = (input: FuzzInput<Buffer>, answer: Answer): string | undefined => {
        if (!meets(outcomeOf(answer), input.expected)) return `not ${input.expected}`;
        if (answer.status === 202) return typeof answer.body?.message_id === 'string' ? undefined : 'no message_id';
        const error = answer.body?.error;
        if (answer.status !== 400) return 'not a 202 or a 400';
        if (typeof error?.code !== 'string' || typeof error?.message !== 'string') return 'no code and message';
        if (isJson(input.value) && !(typeof error.path === 'string' && /^(\/.*)?$/.test(error.path))) {
          return 'no path, though the body is JSON';
        }
        return undefined;
      };

      const kinds: string[] = new Array(plan.length);
      const outcomes: string[] = new Array(plan.length);
      const messageIds: (string | undefined)[] = new Array(plan.length);
      const wrong: { index: number; kind: string; fault: string; answer: string; body: string }[] = [];
      const answered = progressOf('http answered', plan.length);
      let next = 0;
      let done = 0;
      const worker = async () => {
        for (let at = next++; at < plan.length; at = next++) {
          const { index, isValid } = plan[at]!;
          const input: FuzzInput<Buffer> = isValid
            ? { kind: 'valid', value: Buffer.from(validText(index)), expected: '202' }
            : inputOf(draws[index]!, index);
          const response = await fetch(`${gateway.address}/v1/handoffs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: new Uint8Array(input.value),
          });
          const text = await response.text();
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          const answer = { status: response.status, body, text };
          kinds[at] = input.kind;
          outcomes[at] = outcomeOf(answer);
          if (answer.status === 202) messageIds[at] = body?.message_id;
          const why = fault(input, answer);
          if (why !== undefined) {
            wrong.push({
              index,
              kind: input.kind,
              fault: why,
              answer: text.slice(0, 400),
              body: excerpt(input.value, 'utf8'),
            });
          }
          answered((done += 1));
        }
      };
      await Promise.all(Array.from({ length: HTTP_CONCURRENCY }, worker));

      // Every accepted handoff, valid or not, must end routed or as a coded dead letter; a valid one routed.
      const accepted = new Map<string, { isValid: boolean; endings: string[] }>();
      plan.forEach(({ isValid }, at) => {
        const messageId = messageIds[at];
        if (messageId !== undefined) accepted.set(messageId, { isValid, endings: [] });
      });
      let readLetters = 0;
      let readRouted = 0;
      const read = () => {
        for (; readLetters < dlq.records.length; readLetters += 1) {
          const { headers } = dlq.records[readLetters]!;
          const code = headers['baton.dlq.error.code'];
          const ending = typeof code === 'string' && code !== '' ? `DLQ ${code}` : 'DLQ without a code';
          accepted.get(String(headers.ce_id))?.endings.push(ending);
        }
        for (; readRouted < sink.records.length; readRouted += 1) {
          accepted.get(String(sink.records[readRouted]!.headers.ce_id))?.endings.push('routed');
        }
        return [...accepted.values()].filter(({ endings }) => endings.length > 0).length;
      };
      const settled = progressOf('http accepted and settled', accepted.size);
      try {
        await waitFor(
          () => {
            const count = read();
            settled(count);
            return exits.length > 0 || count === accepted.size;
          },
          { description: `an ending for each of ${accepted.size} accepted handoffs`, timeoutMs: HTTP_TIMEOUT_MS },
        );
      } catch (error) {
        console.log(String(error));
      }

      const fuzzed = plan.flatMap(({ isValid }, at) => {
        if (isValid) return [];
        const endings = accepted.get(messageIds[at] ?? '')?.endings;
        const outcome = outcomes[at]!;
        return [
          { kind: kinds[at]!, outcome: outcome === '202' ? `202, then ${endings?.join(', ') || 'nothing'}` : outcome },
        ];
      });
      console.log(
        `fuzz http: ${fuzzed.length} malformed + ${plan.length - fuzzed.length} valid bodies in ${Date.now() - started} ms\n` +
          `${countLines(
            'by outcome',
            fuzzed.map(({ outcome }) => outcome),
          )}\n` +
          countLines(
            'by kind',
            fuzzed.map(({ kind }) => kind),
          ),
      );
      expect(exits).toEqual([]);
      expect(
        wrong.slice(0, 10),
        `${wrong.length} bodies answered wrongly; the gateway's troubles:\n${troubles(gateway).join('\n')}`,
      ).toEqual([]);
      const unsettled = [...accepted]
        .filter(([, { isValid, endings }]) =>
          isValid ? endings.join() !== 'routed' : !/^(DLQ [A-Z_]+|routed)$/.test(endings.join()),
        )
        .map(([messageId, ending]) => ({ messageId, ...ending }));
      expect(unsettled.slice(0, 10), `${unsettled.length} accepted handoffs ended wrongly`).toEqual([]);
      await expectServicesUp();
    },
    // Posting every body, then waiting for what was accepted: each phase within HTTP_TIMEOUT_MS.
    HTTP_TIMEOUT_MS * 2 + 60_000,
  );
});
