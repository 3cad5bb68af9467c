/**
 * The JSON Schemas of the gateway's routes: Fastify validates requests with them and the OpenAPI
 * document shows the same ones.
 */

export const errorSchema = {
  $id: 'Error',
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'A stable code from docs/errors.md' },
        message: { type: 'string' },
        path: { type: 'string', description: 'JSON Pointer to the field at fault' },
        issues: {
          type: 'array',
          items: {
            type: 'object',
            required: ['code', 'path', 'message'],
            properties: { code: { type: 'string' }, path: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
  },
} as const;

const filterProperties = {
  error_code: { type: 'string', description: 'baton.dlq.error.code, e.g. NO_ROUTE' },
  task_id: { type: 'string', description: 'The record key' },
  handoff_type: { type: 'string', description: 'The ce_type header' },
  header: {
    type: 'array',
    items: { type: 'string', pattern: '^[^=]+=.*$' },
    description: 'name=value; repeat for several headers, all must match',
  },
  from: { type: 'string', format: 'date-time', description: 'Dead-lettered at or after' },
  to: { type: 'string', format: 'date-time', description: 'Dead-lettered before' },
} as const;

export const deadLetterListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...filterProperties,
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
    cursor: { type: 'string', pattern: '^[0-9]+$', description: 'next_cursor of the page before' },
  },
} as const;

export const allDeadLettersQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...deadLetterListQuery.properties,
    agent: {
      type: 'string',
      minLength: 1,
      description: "An agent's dead letters: those of its inbox and control topic (`router`: the inbound topic's)",
    },
  },
} as const;

export const deadLetterFilterBody = {
  type: 'object',
  additionalProperties: false,
  properties: filterProperties,
} as const;

/** What a single replay and a replay job both take. */
const replayProperties = {
  reason: { type: 'string', minLength: 1, maxLength: 1000, description: 'Why: kept in the audit trail' },
  target_topic: { type: 'string', minLength: 1, description: 'Default: the source topic; else one allowed' },
  new_message_id: {
    type: 'boolean',
    default: false,
    description: 'Give the handoff a fresh message_id, so consumers that processed it process it again',
  },
} as const;

export const replayBody = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    ...replayProperties,
    override_trust: {
      type: 'boolean',
      default: false,
      description:
        'Replay it even though the trust gate refuses it (REPLAY_TRUST_REFUSED): needs the trust-override role; the audit entry names the refusal',
    },
  },
} as const;

export const replayJobBody = {
  type: 'object',
  additionalProperties: false,
  required: ['dlq_topic', 'reason'],
  properties: {
    dlq_topic: { type: 'string', minLength: 1 },
    filter: deadLetterFilterBody,
    ...replayProperties,
    rate_per_second: { type: 'number', exclusiveMinimum: 0, maximum: 1000, default: 10 },
  },
} as const;

export const taskParams = {
  type: 'object',
  required: ['task_id'],
  properties: { task_id: { type: 'string', minLength: 1 } },
} as const;

export const deadLetterTopicParams = {
  type: 'object',
  required: ['topic'],
  properties: { topic: { type: 'string', minLength: 1 } },
} as const;

export const deadLetterParams = {
  type: 'object',
  required: ['topic', 'id'],
  properties: { topic: { type: 'string', minLength: 1 }, id: { type: 'string', pattern: '^[0-9]+-[0-9]+$' } },
} as const;

export const jobParams = {
  type: 'object',
  required: ['job_id'],
  properties: { job_id: { type: 'string', minLength: 1 } },
} as const;

export const jobCommandParams = {
  type: 'object',
  required: ['job_id', 'command'],
  properties: {
    job_id: { type: 'string', minLength: 1 },
    command: { type: 'string', enum: ['start', 'pause', 'resume', 'stop'] },
  },
} as const;

export const auditQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
} as const;

/** Error answers every guarded route may give. */
export function errorResponses(...statuses: number[]): Record<number, { $ref: string }> {
  return Object.fromEntries([401, 403, ...statuses].map((status) => [status, { $ref: 'Error#' }]));
}
