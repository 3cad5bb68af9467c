import { parsedCopy } from '../validation/parsed-copy.js';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { FailureHandlingStrategy, Immutable } from '../handoff/handoff-message.js';
import { collectIssues } from '../validation/ajv-issues.js';
import { createAjv } from '../validation/create-ajv.js';
import { payloadSchemaFile } from '../validation/lifecycle-schema-files.js';
import type { TaskContextTransferPayload } from './lifecycle-message.js';

/** What the sender of a negotiated handoff asks for, and what the tracker enforces on its behalf. */
export interface HandoffTerms {
  desired_agent_type: string;
  reason: string;
  /** ISO 8601; past it the task ends EXPIRED. */
  expiration_time?: string;
  /** ISO 8601 duration from the first request within which the handoff must complete. */
  time_limit?: string;
  failure_handling_strategy?: FailureHandlingStrategy;
}

/** The context a HandoffRequest offers, waiting on the events topic for a receiver to accept. */
export interface StagedContext {
  request_message_id: string;
  task_id: string;
  sender_id: string;
  staged_at: string;
  /** The TaskContextTransfer payload to send, without its envelope copies. */
  context: TaskContextTransferPayload;
  terms: HandoffTerms;
}

const require = createRequire(import.meta.url);
let validate: ValidateFunction | undefined;

function compile(): ValidateFunction {
  const ajv = createAjv();
  ajv.addSchema(require(`@baton/schemas/json/${payloadSchemaFile('TaskContextTransfer')}`) as object);
  return ajv.compile(require('@baton/schemas/json/lifecycle/staged_context.schema.json') as object);
}

/** The staged context's validator, compiled at the first call. */
export function stagedContextValidator(): ValidateFunction {
  return (validate ??= compile());
}

/** Checks a decoded staged context and returns it frozen; throws HandoffValidationError. */
export function parseStagedContext(value: unknown): Immutable<StagedContext> {
  const check = stagedContextValidator();
  return parsedCopy<StagedContext>(value, (copy) => collectIssues(check, copy, ''));
}
