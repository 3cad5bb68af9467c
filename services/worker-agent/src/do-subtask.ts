import type { NextHandoff } from '@baton/agent-sdk';
import {
  HandoffValidationError,
  type Immutable,
  type JsonObject,
  type JsonValue,
  type TaskTransferData,
} from '@baton/protocol';

/** Where the worker sends a draft: seed 003's agent C. */
export const COMPILER_AGENT = 'compiler_agent';

const ATTRIBUTES = '/payload/data/attributes';

function objectAt(value: JsonValue | undefined, path: string): Immutable<JsonObject> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  throw new HandoffValidationError([{ code: 'FIELD_TYPE', path, message: 'a subtask carries this object' }]);
}

function roundAt(value: JsonValue | undefined, path: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  throw new HandoffValidationError([{ code: 'FIELD_OUT_OF_RANGE', path, message: 'a round is an integer from 1' }]);
}

/**
 * Seed 003's agent B on one round of a subtask: it writes a draft and hands it to the compiler.
 * Deterministic: a draft's quality is its round (each round of work on the reviewer's feedback
 * raises it by one), and from round 2 on it says which feedback it addresses. The round is
 * attributes.workflow.round; the draft goes in attributes.draft, and the feedback it answered
 * is dropped.
 */
export function doSubtask(data: Immutable<TaskTransferData>): NextHandoff<'TASK_TRANSFER'> {
  const attributes = objectAt(data.attributes as JsonValue | undefined, ATTRIBUTES);
  const workflow = objectAt(attributes.workflow as JsonValue | undefined, `${ATTRIBUTES}/workflow`);
  const round = roundAt(workflow.round as JsonValue | undefined, `${ATTRIBUTES}/workflow/round`);
  const feedback = attributes.feedback as Immutable<JsonObject> | undefined;
  const addressed = typeof feedback?.text === 'string' ? `, revised for: ${feedback.text}` : '';
  const text = `Draft ${round} of "${data.task_summary}"${addressed}`;
  const rest = structuredClone(attributes) as JsonObject;
  delete rest.feedback;
  return {
    to: COMPILER_AGENT,
    handoff_type: 'TASK_TRANSFER',
    workflow_state: `ROUND_${round}_COMPILE`,
    data: {
      ...(structuredClone(data) as TaskTransferData),
      attributes: { ...rest, draft: { round, text, quality: round } },
    },
    action: { action_type: 'DO_SUBTASK', details: `Round ${round}: ${text}` },
  };
}
