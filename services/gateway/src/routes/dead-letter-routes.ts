import type { FastifyInstance } from 'fastify';
import { principalOf } from '../access/access-control.js';
import { maySeePersonalData } from '../access/api-keys.js';
import type { DeadLetterFilterParameters } from '@baton/gateway-api';
import { parseFilter } from '../dead-letters/dead-letter-filter.js';
import { deadLetterDetail, deadLetterSummary } from '../dead-letters/dead-letter-views.js';
import type { GatewayParts } from '../gateway-parts.js';
import {
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
}

const free = { type: 'object', additionalProperties: true } as const;

export function registerDeadLetterRoutes(app: FastifyInstance, parts: GatewayParts): void {
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
                items: {
                  type: 'object',
                  properties: {
                    topic: { type: 'string' },
                    source_topic: { type: 'string' },
                    count: { type: 'integer' },
                  },
                },
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
        response: {
          200: {
            type: 'object',
            properties: {
              messages: { type: 'array', items: free },
              total: { type: 'integer', description: 'Records matching the filter' },
              next_cursor: { type: 'string' },
            },
          },
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => {
      const { limit, cursor, ...filter } = request.query;
      const page = parts.deadLetters.page(request.params.topic, parseFilter(filter), limit, cursor);
      return {
        messages: page.records.map((record) => deadLetterSummary(record, parts.audit)),
        total: page.total,
        ...(page.next_cursor === undefined ? {} : { next_cursor: page.next_cursor }),
      };
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
        summary: 'Replay one dead letter to its source topic, or an allowed one; recorded in the audit trail',
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
          ...errorResponses(400, 404, 422, 503),
        },
      },
    },
    async (request) => {
      const letter = parts.deadLetters.get(request.params.topic, request.params.id);
      const principal = principalOf(request);
      const result = await parts.replayer.replay(letter, {
        actor: principal.name,
        reason: request.body.reason,
        targetTopic: request.body.target_topic,
        newMessageId: request.body.new_message_id,
      });
      request.log.info({ event: 'dlq.replayed', actor: principal.name, ...result }, 'dead letter replayed');
      return result;
    },
  );
}
