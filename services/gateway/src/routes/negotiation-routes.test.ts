import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { topicNames, type OutputRecord } from '@baton/kafka';
import { nameBasedUuid } from '@baton/protocol';
import { createLogger, createServiceMetrics } from '@baton/runtime';
import type { LifecycleCodec, StagedContextCodec } from '@baton/wire';
import { parseApiKeys } from '../access/api-keys.js';
import type { GatewayParts } from '../gateway-parts.js';
import { buildGatewayHttp } from '../http/gateway-app.js';
import { NegotiationSubmitter } from '../publishing/negotiation-submitter.js';

const require = createRequire(import.meta.url);
const PUBLISHER = 'pub-token';
const VIEWER = 'viewer-token';
const EXPERT = 'level3_network_expert_agent_pool';
const MESSAGE_ID = '0b7f3c1e-2d4a-4c6b-8e9f-1a2b3c4d5e6f';

// Records are checked by topic and type; their bytes need no registry.
const encode = (value: unknown) => Buffer.from(JSON.stringify(value));
const codecs = {
  lifecycleCodec: { encode } as unknown as LifecycleCodec,
  stagedCodec: { encode } as unknown as StagedContextCodec,
};

/** A handoff as a client sends it: the gateway fills the rest. */
function handoff(metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    metadata: { sender_id: 'ops_console', recipient_id: EXPERT, task_id: 'task-neg-1', ...metadata },
    context: { historical_data_summary: 'drops every hour' },
    payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS' } },
  };
}

function ask(body: Record<string, unknown> = {}): Record<string, unknown> {
  return { handoff: handoff(), desired_agent_type: 'network', reason: 'needs tier 3', ...body };
}

interface Rig {
  app: FastifyInstance;
  sent: OutputRecord[][];
  puts: string[];
  ensured: string[];
}

let current: FastifyInstance | undefined;

async function rig(
  options: { inlineMaxBytes?: number; send?: (records: OutputRecord[]) => Promise<unknown>; timeoutMs?: number } = {},
): Promise<Rig> {
  const sent: OutputRecord[][] = [];
  const puts: string[] = [];
  const ensured: string[] = [];
  const negotiations = new NegotiationSubmitter({
    opener: {
      inlineMaxBytes: options.inlineMaxBytes ?? 1_000_000,
      contexts: {
        async put(bytes, put) {
          puts.push(put.key);
          return {
            uri: 'kafka://t.contexts/2/40',
            sha256: 'a'.repeat(64),
            size_bytes: bytes.length,
            content_type: 'x',
          };
        },
      },
      async ensureControlTopic(agentId) {
        ensured.push(agentId);
      },
    },
    send: options.send ?? (async (records) => sent.push(records)),
    codecs,
    topics: topicNames('t'),
    timeoutMs: options.timeoutMs ?? 5_000,
  });
  current = (
    await buildGatewayHttp({
      port: 0,
      host: '127.0.0.1',
      // The negotiation route uses its submitter only; the other parts are never reached.
      parts: { negotiations } as unknown as GatewayParts,
      apiKeys: parseApiKeys(`pub:${PUBLISHER}:publisher,view:${VIEWER}:viewer`),
      logger: createLogger('gateway-test', 'silent'),
      metrics: createServiceMetrics({ service: 'gateway-test' }),
      metricsOfRequest: () => undefined,
      isReady: () => true,
    })
  ).app;
  return { app: current, sent, puts, ensured };
}

afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function post(app: FastifyInstance, body: unknown, token = PUBLISHER) {
  const answer = await app.inject({
    method: 'POST',
    url: '/v1/negotiations',
    headers: { 'x-api-key': token, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: answer.statusCode, body: answer.json(), headers: answer.headers };
}

function issuePaths(body: { error: { issues: { path: string }[] } }): string[] {
  return body.error.issues.map((issue) => issue.path);
}

describe('POST /v1/negotiations', () => {
  it('writes the staged context and the request in one transaction, then answers 202 with the negotiation', async () => {
    const { app, sent, puts, ensured } = await rig();
    const { status, body } = await post(app, ask({ handoff: handoff({ message_id: MESSAGE_ID }) }));
    expect(status).toBe(202);
    expect(body).toEqual({
      negotiation_id: nameBasedUuid(`${MESSAGE_ID}/negotiation`),
      task_id: 'task-neg-1',
      receiver: EXPERT,
      context_mode: 'by-value',
    });
    expect(ensured).toEqual([EXPERT]);
    expect(puts).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.map((record) => [record.topic, record.key, record.headers?.ce_type])).toEqual([
      ['t.events', 'task-neg-1', 'baton.lifecycle.StagedContext'],
      ['t.events', 'task-neg-1', 'baton.lifecycle.HandoffRequest'],
      [`t.agent.${EXPERT}.control`, 'task-neg-1', 'baton.lifecycle.HandoffRequest'],
    ]);
    const request = JSON.parse(String(sent[0]?.[1]?.value));
    expect(request).toMatchObject({
      message_id: body.negotiation_id,
      sender_id: 'ops_console',
      receiver_id: EXPERT,
      payload: {
        reason: 'needs tier 3',
        desired_agent_type: 'network',
        priority: 'MEDIUM',
        initial_context_summary: 'drops every hour',
      },
    });
    const staged = JSON.parse(String(sent[0]?.[0]?.value));
    expect(staged.context.context_data).toMatchObject({
      schema_version: 'baton.handoff.v1',
      task_description: 'drops every hour',
      handoff: { metadata: { message_id: MESSAGE_ID, protocol_version: expect.any(String) } },
    });
  });

  it('stores a context over BATON_CONTEXT_INLINE_MAX_BYTES first and sends it by reference', async () => {
    const { app, sent, puts } = await rig({ inlineMaxBytes: 64 });
    const { status, body } = await post(app, ask());
    expect([status, body.context_mode]).toEqual([202, 'by-reference']);
    expect(puts).toEqual(['task-neg-1']);
    expect(JSON.parse(String(sent[0]?.[0]?.value)).context).toEqual({
      context_ref: expect.objectContaining({ uri: 'kafka://t.contexts/2/40' }),
    });
  });

  it('derives the negotiation from the handoff’s message_id, so a retried POST opens the same one', async () => {
    const { app } = await rig();
    const first = await post(app, ask({ handoff: handoff({ message_id: MESSAGE_ID }) }));
    const again = await post(app, ask({ handoff: handoff({ message_id: MESSAGE_ID }) }));
    const other = await post(app, ask());
    expect(again.body.negotiation_id).toBe(first.body.negotiation_id);
    expect(other.body.negotiation_id).not.toBe(first.body.negotiation_id);
  });

  it('answers 400 REQUEST_INVALID naming each missing, unknown or blank field of the request', async () => {
    const { app, sent } = await rig();
    const { status, body } = await post(app, { handoff: handoff(), reason: '  ', priority: 'HIGH' });
    expect([status, body.error.code]).toEqual([400, 'REQUEST_INVALID']);
    expect(body.error.issues).toEqual([
      { code: 'FIELD_NOT_ALLOWED', path: '/priority', message: expect.any(String) },
      { code: 'FIELD_REQUIRED', path: '/desired_agent_type', message: expect.any(String) },
      { code: 'FIELD_OUT_OF_RANGE', path: '/reason', message: expect.any(String) },
    ]);
    expect(sent).toEqual([]);

    const notObject = await post(app, [ask()]);
    expect([notObject.status, notObject.body.error.code, notObject.body.error.issues[0].code]).toEqual([
      400,
      'REQUEST_INVALID',
      'FIELD_TYPE',
    ]);
    const noHandoff = await post(app, { desired_agent_type: 'network', reason: 'r', handoff: 'x' });
    expect(issuePaths(noHandoff.body)).toEqual(['/handoff']);
    const tooLong = await post(app, ask({ desired_agent_type: 'x'.repeat(1_001) }));
    expect(issuePaths(tooLong.body)).toEqual(['/desired_agent_type']);
  });

  it('answers 400 with the handoff’s own issues under /handoff, as POST /v1/handoffs names them', async () => {
    const { app } = await rig();
    const invalid = structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-invalid.json'));
    const seed = await post(app, ask({ handoff: invalid }));
    expect([seed.status, seed.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(seed.body.error.issues).toContainEqual({
      code: 'FIELD_REQUIRED',
      path: '/handoff/payload/data/customer_info/name',
      message: expect.any(String),
    });
    const bare = await post(app, { handoff: {}, reason: 'r' });
    expect(issuePaths(bare.body)).toEqual(
      expect.arrayContaining(['/handoff/metadata/sender_id', '/handoff/metadata/task_id', '/desired_agent_type']),
    );
    expect(bare.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('answers 400 at /handoff/metadata/recipient_id unless it names exactly one agent', async () => {
    const { app, sent, ensured } = await rig();
    for (const [recipient, code] of [
      [[EXPERT, 'human_agent'], 'FIELD_INVALID'],
      ['two words', 'FIELD_PATTERN'],
    ] as const) {
      const { status, body } = await post(app, ask({ handoff: handoff({ recipient_id: recipient }) }));
      expect([status, body.error.code, body.error.path]).toEqual([
        400,
        'VALIDATION_FAILED',
        '/handoff/metadata/recipient_id',
      ]);
      expect(body.error.issues).toEqual([
        { code, path: '/handoff/metadata/recipient_id', message: expect.any(String) },
      ]);
    }
    expect([sent, ensured]).toEqual([[], []]);
    const listOfOne = await post(app, ask({ handoff: handoff({ recipient_id: [EXPERT] }) }));
    expect([listOfOne.status, listOfOne.body.receiver]).toEqual([202, EXPERT]);
  });

  it('needs the publisher role', async () => {
    const { app } = await rig();
    expect((await post(app, ask(), VIEWER)).status).toBe(403);
    expect((await post(app, ask(), 'unknown')).status).toBe(401);
  });

  it('answers 503 KAFKA_UNAVAILABLE with Retry-After when Kafka fails or does not answer in time', async () => {
    const failing = await rig({ send: async () => Promise.reject(new Error('broker down')) });
    const failed = await post(failing.app, ask());
    expect([failed.status, failed.body.error.code, failed.headers['retry-after']]).toEqual([
      503,
      'KAFKA_UNAVAILABLE',
      '5',
    ]);
    expect(failed.body.error.message).toContain('broker down');
    await current?.close();

    const silent = await rig({ send: () => new Promise(() => undefined), timeoutMs: 50 });
    const late = await post(silent.app, ask());
    expect([late.status, late.body.error.code]).toEqual([503, 'KAFKA_UNAVAILABLE']);
    expect(late.body.error.message).toBe('Kafka did not acknowledge the negotiation within 50 ms');
  });

  it('is in the OpenAPI document with its body and answer', async () => {
    const { app } = await rig();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const route = document.paths['/v1/negotiations'].post;
    const body = route.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['handoff', 'desired_agent_type', 'reason']);
    expect(Object.keys(route.responses)).toEqual(expect.arrayContaining(['202', '400', '401', '403', '503']));
    expect(route.responses['202'].content['application/json'].schema.required).toEqual([
      'negotiation_id',
      'task_id',
      'receiver',
      'context_mode',
    ]);
  });
});
