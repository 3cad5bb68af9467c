import type { FastifyInstance } from 'fastify';
import { principalOf } from '../access/access-control.js';
import { mayOverrideTrust, maySeePersonalData } from '../access/api-keys.js';
import { BatonError } from '@baton/errors';
import type { DeadLetterFilterParameters } from '@baton/gateway-api';
import { agentOfDeadLetterTopic, parseFilter } from '../dead-letters/dead-letter-filter.js';
import type { DeadLetterPage } from '../dead-letters/dead-letter-store.js';
import { deadLetterDetail, deadLetterSummary } from '../dead-letters/dead-letter-views.js';
import type { GatewayParts } from '../gateway-parts.js';
import {
  allDeadLettersQuery,
  deadLetterListQuery,
  deadLetterParams,
  deadLetterTopicParams,
  errorResponses,
  replayBody,
} from '../http/route-schemas.js';

interface ListQuery extends DeadLetterFilterParameters {
  limit: number;
  cursor?: string;
}

interface ReplayBody {
  reason: string;
  target_topic?: string;
  new_message_id: boolean;
  override_trust: boolean;
}

const free = { type: 'object', additionalProperties: true } as const;

/** A DLQ topic and how many dead letters it holds (GET /v1/dlq, and the stats' by_topic). */
const TOPIC_SUMMARY = {
  type: 'object',
  properties: { topic: { type: 'string' }, source_topic: { type: 'string' }, count: { type: 'integer' } },
} as const;

const listAnswer = {
  type: 'object',
  properties: {
    messages: { type: 'array', items: free },
    total: { type: 'integer', description: 'Records matching the filter' },
    next_cursor: { type: 'string' },
  },
} as const;

function pageAnswer(page: DeadLetterPage, parts: GatewayParts) {
  return {
    messages: page.records.map((record) => deadLetterSummary(record, parts.audit)),
    total: page.total,
    ...(page.next_cursor === undefined ? {} : { next_cursor: page.next_cursor }),
  };
}

export function registerDeadLetterRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.get<{ Querystring: ListQuery & { agent?: string } }>(
    '/v1/dead-letters',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['dead letters'],
        summary: "Every DLQ topic's records in one list, newest first, filtered (an agent's too) and paged",
        querystring: allDeadLettersQuery,
        response: { 200: listAnswer, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { limit, cursor, agent, ...filter } = request.query;
      const topics =
        agent === undefined
          ? undefined
          : new Set(
              parts.deadLetters
                .summaries()
                .map((summary) => summary.topic)
                .filter((topic) => agentOfDeadLetterTopic(topic) === agent),
            );
      return pageAnswer(parts.deadLetters.pageAll(parseFilter(filter), limit, cursor, topics), parts);
    },
  );

  app.get(
    '/v1/dead-letters/stats',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['dead letters'],
        summary: 'Dead letters across every DLQ topic: the total, by error code and by topic (non-empty, most first)',
        response: {
          200: {
            type: 'object',
            properties: {
              total: { type: 'integer' },
              by_error_code: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { error_code: { type: 'string' }, count: { type: 'integer' } },
                },
              },
              by_topic: {
                type: 'array',
                items: TOPIC_SUMMARY,
              },
              empty_topics: { type: 'integer' },
            },
          },
          ...errorResponses(),
        },
      },
    },
    async () => parts.deadLetters.stats(),
  );

  app.get(
    '/v1/dlq',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['dead letters'],
        summary: 'The dead-letter topics with their counts',
        response: {
          200: {
            type: 'object',
            properties: {
              topics: {
                type: 'array',
                items: TOPIC_SUMMARY,
              },
            },
          },
          ...errorResponses(),
        },
      },
    },
    async () => ({ topics: parts.deadLetters.summaries() }),
  );

  app.get<{ Params: { topic: string }; Querystring: ListQuery }>(
    '/v1/dlq/:topic/messages',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['dead letters'],
        summary: "A DLQ topic's records, newest first, filtered and paged",
        params: deadLetterTopicParams,
        querystring: deadLetterListQuery,
        response: { 200: listAnswer, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { limit, cursor, ...filter } = request.query;
      return pageAnswer(parts.deadLetters.page(request.params.topic, parseFilter(filter), limit, cursor), parts);
    },
  );

  app.get<{ Params: { topic: string; id: string } }>(
    '/v1/dlq/:topic/messages/:id',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['dead letters'],
        summary:
          'One dead letter: headers, error, decoded body (personal fields masked without the personal-data role) and its replays',
        params: deadLetterParams,
        response: { 200: free, ...errorResponses(404) },
      },
    },
    async (request) =>
      deadLetterDetail(parts.deadLetters.get(request.params.topic, request.params.id), parts.codec, parts.audit, {
        personalData: parts.personalData,
        revealPersonalData: maySeePersonalData(principalOf(request)),
      }),
  );

  app.post<{ Params: { topic: string; id: string }; Body: ReplayBody }>(
    '/v1/dlq/:topic/messages/:id/replay',
    {
      config: { role: 'operator' },
      schema: {
        tags: ['dead letters'],
        summary:
          'Replay one dead letter to its source topic, or an allowed one, unless the trust gate refuses it (409); recorded in the audit trail',
        params: deadLetterParams,
        body: replayBody,
        response: {
          200: {
            type: 'object',
            properties: {
              audit_id: { type: 'string' },
              dlq_topic: { type: 'string' },
              id: { type: 'string' },
              target_topic: { type: 'string' },
              message_id: { type: 'string' },
              partition: { type: 'integer' },
              offset: { type: 'string' },
            },
          },
          ...errorResponses(400, 404, 409, 422, 503),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (request.body.override_trust && !mayOverrideTrust(principal)) {
        throw new BatonError('FORBIDDEN', `the credential ${principal.name} lacks the trust-override role`, {
          path: '/override_trust',
        });
      }
      const letter = parts.deadLetters.get(request.params.topic, request.params.id);
      const result = await parts.replayer.replay(letter, {
        actor: principal.name,
        reason: request.body.reason,
        targetTopic: request.body.target_topic,
        newMessageId: request.body.new_message_id,
        overrideTrust: request.body.override_trust,
      });
      request.log.info({ event: 'dlq.replayed', actor: principal.name, ...result }, 'dead letter replayed');
      return result;
    },
  );
}
