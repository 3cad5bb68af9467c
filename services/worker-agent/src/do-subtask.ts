import type { NextHandoff } from '@baton/agent-sdk';
import { SUBTASK_ATTRIBUTES_PATH, positiveIntegerAt, subtaskAttributes } from '@baton/workflow';
import type { Immutable, JsonObject, JsonValue, TaskTransferData } from '@baton/protocol';

/** Where the worker sends a draft: the compiler. */
export const COMPILER_AGENT = 'compiler_agent';

/**
 * The worker on one round of a subtask: it writes a draft and hands it to the compiler.
 * Deterministic: a draft's quality is its round (each round of work on the reviewer's feedback
 * raises it by one), and from round 2 on it says which feedback it addresses. The round is
 * attributes.workflow.round; the draft goes in attributes.draft, and the feedback it answered
 * is dropped.
 */
export function doSubtask(data: Immutable<TaskTransferData>): NextHandoff<'TASK_TRANSFER'> {
  const { attributes, workflow } = subtaskAttributes(data);
  const round = positiveIntegerAt(workflow.round as JsonValue | undefined, `${SUBTASK_ATTRIBUTES_PATH}/workflow/round`);
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
