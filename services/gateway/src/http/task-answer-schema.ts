import { HANDOFF_EVENTS, HANDOFF_SIDES, RECEIVER_STATES, SENDER_STATES } from '@baton/negotiation';
import { LIFECYCLE_MESSAGE_TYPES } from '@baton/protocol';
import { TASK_STATUSES } from '@baton/task-tracking';

/**
 * The JSON Schema of `GET /v1/tasks/{task_id}`'s answer (TaskAnswer of @baton/gateway-api). Fastify
 * writes an answer with it, so a field it does not name is never sent, and the OpenAPI document
 * shows it. OpenAPI 3.0 has no `const`: a one-value `enum` tells the steps apart by `kind`.
 */

const time = { type: 'string', format: 'date-time' } as const;

const outcomeStep = {
  type: 'object',
  description: 'What became of a handoff at a service (an outcome event)',
  required: ['kind', 'time', 'message_id', 'handoff_type', 'agent_id', 'outcome'],
  properties: {
    kind: { type: 'string', enum: ['outcome'] },
    time,
    message_id: { type: 'string' },
    handoff_type: { type: 'string' },
    issue_category: { type: 'string' },
    sender: { type: 'string' },
    receiver: { type: 'string' },
    agent_id: { type: 'string', description: 'The service that finished with the handoff' },
    outcome: { type: 'string' },
    target: { type: 'string' },
    detail: { type: 'string' },
    error_code: { type: 'string' },
  },
} as const;

const refusal = {
  type: 'object',
  description: 'Why the handoff state machine refused the message: recorded, never applied',
  required: ['code', 'side', 'from', 'event', 'message'],
  properties: {
    code: { type: 'string', enum: ['ILLEGAL_TRANSITION'] },
    side: { type: 'string', enum: [...HANDOFF_SIDES] },
    from: { type: 'string', description: 'The state the side was in' },
    event: { type: 'string', enum: [...HANDOFF_EVENTS] },
    message: { type: 'string' },
  },
} as const;

const lifecycleStep = {
  type: 'object',
  description: 'A lifecycle message of a negotiated handoff',
  required: ['kind', 'time', 'message_id', 'message_type', 'sender', 'receiver'],
  properties: {
    kind: { type: 'string', enum: ['lifecycle'] },
    time,
    message_id: { type: 'string' },
    message_type: { type: 'string', enum: [...LIFECYCLE_MESSAGE_TYPES] },
    sender: { type: 'string' },
    receiver: { type: 'string' },
    correlation_id: { type: 'string' },
    detail: { type: 'string', description: "The payload's gist: a reason, a status, an error" },
    refused: refusal,
  },
} as const;

const contextMode = { type: 'string', enum: ['by-value', 'by-reference'] } as const;

const stagedStep = {
  type: 'object',
  description: 'The context a negotiation offers, staged before its first request',
  required: ['kind', 'time', 'message_id', 'sender', 'context_mode', 'detail'],
  properties: {
    kind: { type: 'string', enum: ['staged'] },
    time,
    message_id: { type: 'string', description: '<request message_id>.staged' },
    sender: { type: 'string' },
    context_mode: contextMode,
    detail: { type: 'string' },
  },
} as const;

const attempt = {
  type: 'object',
  required: ['request_id', 'receiver', 'via', 'requested_at', 'receiver_state'],
  properties: {
    request_id: { type: 'string' },
    receiver: { type: 'string' },
    via: {
      type: 'string',
      enum: ['target', 'retry', 'escalate_to', 'fallback_action', 'suggestion'],
      description: "The sender's choice, or the step of the failure_handling_strategy that named the receiver",
    },
    requested_at: time,
    receiver_state: { type: 'string', enum: [...RECEIVER_STATES] },
    accepted_at: time,
    context_sent_at: time,
    completed_at: time,
    rejection: {
      type: 'object',
      required: ['reason', 'suggestions'],
      properties: { reason: { type: 'string' }, suggestions: { type: 'array', items: { type: 'string' } } },
    },
    failure: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
} as const;

const negotiation = {
  type: 'object',
  description: 'A negotiated handoff: the sender side, as the tracker runs it, and every attempt',
  required: [
    'negotiation_id',
    'sender_id',
    'terms',
    'context_mode',
    'staged_at',
    'sender_state',
    'attempts',
    'outcome',
  ],
  properties: {
    negotiation_id: { type: 'string', description: 'The message_id of the first HandoffRequest' },
    sender_id: { type: 'string' },
    terms: {
      type: 'object',
      required: ['desired_agent_type', 'reason'],
      properties: {
        desired_agent_type: { type: 'string' },
        reason: { type: 'string' },
        expiration_time: time,
        time_limit: { type: 'string', description: 'ISO 8601 duration' },
        failure_handling_strategy: {
          type: 'object',
          properties: {
            retry_count: { type: 'integer' },
            escalate_to: { type: 'string' },
            fallback_action: { type: 'string' },
          },
        },
      },
    },
    context_mode: contextMode,
    staged_at: time,
    sender_state: { type: 'string', enum: [...SENDER_STATES] },
    attempts: { type: 'array', items: attempt },
    outcome: { type: 'string', enum: ['OPEN', 'COMPLETED', 'FAILED', 'EXPIRED'] },
    ended_at: time,
    reason: { type: 'string', description: 'Why it FAILED or EXPIRED' },
  },
} as const;

const refusedMessage = {
  type: 'object',
  required: ['message_id', 'message_type', 'time', 'error'],
  properties: { message_id: { type: 'string' }, message_type: { type: 'string' }, time, error: refusal },
} as const;

export const taskAnswerSchema = {
  type: 'object',
  required: [
    'task_id',
    'status',
    'owner',
    'parent_task_ids',
    'children',
    'events',
    'negotiations',
    'refused',
    'replies',
  ],
  properties: {
    task_id: { type: 'string' },
    status: {
      type: 'string',
      enum: [...TASK_STATUSES],
      description:
        'CREATE, EXECUTING, WAITING, BREAK or FINISH, or FAILED or EXPIRED, the final ends of a negotiated handoff',
    },
    owner: {
      type: ['string', 'null'],
      description:
        'The agent(s) holding the task (comma-separated as routed); null when finished, dead-lettered or expired',
    },
    parent_task_ids: { type: 'array', items: { type: 'string' } },
    children: {
      type: 'array',
      items: { type: 'string' },
      description: 'Tasks whose events name this one in parent_task_ids, by task_id',
    },
    events: {
      type: 'array',
      description: "The task's records on the events topic in topic order, told apart by kind",
      items: { oneOf: [outcomeStep, lifecycleStep, stagedStep] },
    },
    negotiations: { type: 'array', items: negotiation, description: 'Oldest first' },
    refused: {
      type: 'array',
      items: refusedMessage,
      description: 'Lifecycle messages the state machine refused (late, duplicated, out of order)',
    },
    replies: {
      type: 'array',
      description: "The agents' replies to the user, in the order they were sent",
      items: {
        type: 'object',
        required: ['kind', 'message_id', 'time', 'agent_id', 'message'],
        properties: {
          kind: { type: 'string', enum: ['reply'] },
          message_id: { type: 'string' },
          time,
          agent_id: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
  },
} as const;
