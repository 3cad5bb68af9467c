import type { NextHandoff } from '@baton/agent-sdk';
import {
  HandoffValidationError,
  type Immutable,
  type JsonObject,
  type JsonValue,
  type TaskTransferData,
} from '@baton/protocol';

/** Where the compiler sends a compilation: seed 003's agent D. */
export const REVIEWER_AGENT = 'reviewer_agent';

const ATTRIBUTES = '/payload/data/attributes';

function invalid(path: string, message: string): HandoffValidationError {
  return new HandoffValidationError([{ code: 'FIELD_INVALID', path, message }]);
}

function objectAt(value: JsonValue | undefined, path: string): Immutable<JsonObject> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  throw new HandoffValidationError([{ code: 'FIELD_TYPE', path, message: 'a subtask carries this object' }]);
}

/**
 * Seed 003's agent C on one round of a subtask: it compiles the worker's draft (attributes.draft,
 * of the round in attributes.workflow.round) into attributes.compilation, keeping its quality, and
 * hands it to the reviewer. The draft itself is dropped: the compilation carries it.
 */
export function compileSubtask(data: Immutable<TaskTransferData>): NextHandoff<'TASK_TRANSFER'> {
  const attributes = objectAt(data.attributes as JsonValue | undefined, ATTRIBUTES);
  const workflow = objectAt(attributes.workflow as JsonValue | undefined, `${ATTRIBUTES}/workflow`);
  const draft = objectAt(attributes.draft as JsonValue | undefined, `${ATTRIBUTES}/draft`);
  const round = workflow.round;
  if (typeof round !== 'number' || draft.round !== round) {
    throw invalid(
      `${ATTRIBUTES}/draft/round`,
      `the draft is of round ${String(draft.round)}, the subtask at ${String(round)}`,
    );
  }
  if (typeof draft.text !== 'string' || typeof draft.quality !== 'number') {
    throw invalid(`${ATTRIBUTES}/draft`, 'a draft has a text and a quality');
  }
  const where =
    typeof workflow.subtask_index === 'number' && typeof workflow.subtask_count === 'number'
      ? `Subtask ${workflow.subtask_index}/${workflow.subtask_count}`
      : 'Subtask';
  const text = `${where}, round ${round}: ${draft.text}`;
  const rest = structuredClone(attributes) as JsonObject;
  delete rest.draft;
  return {
    to: REVIEWER_AGENT,
    handoff_type: 'TASK_TRANSFER',
    workflow_state: `ROUND_${round}_REVIEW`,
    data: {
      ...(structuredClone(data) as TaskTransferData),
      attributes: { ...rest, compilation: { round, text, quality: draft.quality } },
    },
    action: { action_type: 'COMPILE_SUBTASK', details: `Round ${round}: compiled for review.` },
  };
}
