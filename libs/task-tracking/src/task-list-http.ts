import { BatonError } from '@baton/errors';
import type { TaskListAnswer, TaskListParameters, TaskListStatus } from '@baton/gateway-api';
import type { TaskBook } from './task-book.js';
import { InvalidCursorError, TASK_LIST_STATUSES, type TaskQuery } from './task-index.js';
import { TASK_STATUSES } from './task-status.js';

/**
 * The task list over HTTP, as the gateway's `GET /v1/tasks` and the tracker's serve it: the JSON
 * Schemas of its query (TaskListParameters of @baton/gateway-api) and its answer (TaskListAnswer),
 * which Fastify checks and writes with, and the query as the book's search takes it.
 */

const statusWord = `(${TASK_LIST_STATUSES.join('|')})`;
const time = { type: 'string', format: 'date-time' } as const;
const names = { type: 'array', items: { type: 'string' } } as const;

export const taskListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: {
      type: 'string',
      pattern: `^${statusWord}(,${statusWord})*$`,
      description: `Comma-separated, any of: ${TASK_LIST_STATUSES.join(', ')}. STUCK is an EXECUTING task past its handoff's expiration_time or without an event for stuck_after`,
    },
    agent: { type: 'string', minLength: 1, description: 'An agent that sent, received, held or reported on the task' },
    handoff_type: { type: 'string', minLength: 1 },
    issue_category: { type: 'string', minLength: 1 },
    error_code: {
      type: 'string',
      minLength: 1,
      description: 'An error code of an outcome event or an ErrorNotification',
    },
    from: { ...time, description: "The task's newest event at or after" },
    to: { ...time, description: "The task's first event at or before" },
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: "A substring of the task's id, a parent's, a correlation_id or a message_id",
    },
    correlation_id: {
      type: 'string',
      minLength: 1,
      description: 'The tasks of one flow: a correlation_id their events carry, or the message_id that started it',
    },
    stuck_after: {
      type: 'integer',
      minimum: 1,
      description:
        'Seconds without an event after which an EXECUTING task is stuck; BATON_TASK_STUCK_AFTER_S by default',
    },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
    cursor: { type: 'string', minLength: 1, description: 'next_cursor of the page before' },
  },
} as const;

const taskListRow = {
  type: 'object',
  required: [
    'task_id',
    'status',
    'owner',
    'handoff_types',
    'issue_categories',
    'agents',
    'error_codes',
    'parent_task_ids',
    'events',
    'created_at',
    'updated_at',
  ],
  properties: {
    task_id: { type: 'string' },
    status: { type: 'string', enum: [...TASK_STATUSES] },
    stuck: {
      type: 'string',
      enum: ['deadline', 'silent'],
      description:
        "Set while EXECUTING and stuck: past the routed handoff's expiration_time, or silent for stuck_after",
    },
    owner: { type: 'string', nullable: true },
    handoff_types: names,
    issue_categories: names,
    agents: names,
    error_codes: names,
    correlation_id: { type: 'string' },
    parent_task_ids: names,
    last_outcome: {
      type: 'object',
      required: ['outcome', 'agent_id', 'time'],
      properties: { outcome: { type: 'string' }, agent_id: { type: 'string' }, time, error_code: { type: 'string' } },
    },
    events: { type: 'integer' },
    created_at: time,
    updated_at: time,
    expires_at: time,
  },
} as const;

export const taskListAnswerSchema = {
  type: 'object',
  required: ['tasks', 'total'],
  properties: {
    tasks: { type: 'array', items: taskListRow },
    total: { type: 'integer', description: 'Tasks that match, over every page' },
    next_cursor: { type: 'string' },
  },
} as const;

/** A task list's query parameters, checked by the route's schema, as the book's search takes them. */
export function taskQueryOf(parameters: TaskListParameters & { limit: number }): TaskQuery {
  const query: TaskQuery = { limit: parameters.limit };
  if (parameters.status !== undefined) query.statuses = parameters.status.split(',') as TaskListStatus[];
  if (parameters.agent !== undefined) query.agent = parameters.agent;
  if (parameters.handoff_type !== undefined) query.handoffType = parameters.handoff_type;
  if (parameters.issue_category !== undefined) query.issueCategory = parameters.issue_category;
  if (parameters.error_code !== undefined) query.errorCode = parameters.error_code;
  if (parameters.from !== undefined) query.from = Date.parse(parameters.from);
  if (parameters.to !== undefined) query.to = Date.parse(parameters.to);
  if (parameters.q !== undefined) query.text = parameters.q;
  if (parameters.correlation_id !== undefined) query.correlationId = parameters.correlation_id;
  if (parameters.stuck_after !== undefined) query.stuckAfterMs = parameters.stuck_after * 1_000;
  if (parameters.cursor !== undefined) query.cursor = parameters.cursor;
  return query;
}

/** The page the parameters ask for, as the API answers it; a cursor no list gave is REQUEST_INVALID at /cursor. */
export function taskListAnswer(book: TaskBook, parameters: TaskListParameters & { limit: number }): TaskListAnswer {
  try {
    const result = book.search(taskQueryOf(parameters));
    return {
      tasks: result.tasks,
      total: result.total,
      ...(result.nextCursor === undefined ? {} : { next_cursor: result.nextCursor }),
    };
  } catch (error) {
    if (error instanceof InvalidCursorError)
      throw new BatonError('REQUEST_INVALID', error.message, { path: '/cursor' });
    throw error;
  }
}
