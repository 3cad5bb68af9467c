import type { NextHandoff } from '@baton/agent-sdk';
import { SUBTASK_ATTRIBUTES_PATH, objectAt, subtaskAttributes } from '@baton/workflow';
import {
  HandoffValidationError,
  type Immutable,
  type JsonObject,
  type JsonValue,
  type TaskTransferData,
} from '@baton/protocol';

/** Where the compiler sends a compilation: the reviewer. */
export const REVIEWER_AGENT = 'reviewer_agent';

function invalid(path: string, message: string): HandoffValidationError {
  return new HandoffValidationError([{ code: 'FIELD_INVALID', path, message }]);
}

/**
 * The compiler on one round of a subtask: it compiles the worker's draft (attributes.draft,
 * of the round in attributes.workflow.round) into attributes.compilation, keeping its quality, and
 * hands it to the reviewer. The draft itself is dropped: the compilation carries it.
 */
export function compileSubtask(data: Immutable<TaskTransferData>): NextHandoff<'TASK_TRANSFER'> {
  const { attributes, workflow } = subtaskAttributes(data);
  const draft = objectAt(attributes.draft as JsonValue | undefined, `${SUBTASK_ATTRIBUTES_PATH}/draft`);
  const round = workflow.round;
  if (typeof round !== 'number' || draft.round !== round) {
    throw invalid(
      `${SUBTASK_ATTRIBUTES_PATH}/draft/round`,
      `the draft is of round ${String(draft.round)}, the subtask at ${String(round)}`,
    );
  }
  if (typeof draft.text !== 'string' || typeof draft.quality !== 'number') {
    throw invalid(`${SUBTASK_ATTRIBUTES_PATH}/draft`, 'a draft has a text and a quality');
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
