import {
  HandoffValidationError,
  type Immutable,
  type JsonObject,
  type JsonValue,
  type TaskTransferData,
} from '@baton/protocol';

/** Where a subtask's workflow facts live in its handoff. */
export const SUBTASK_ATTRIBUTES_PATH = '/payload/data/attributes';

export function objectAt(value: JsonValue | undefined, path: string): Immutable<JsonObject> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  throw new HandoffValidationError([{ code: 'FIELD_TYPE', path, message: 'a subtask carries this object' }]);
}

export function positiveIntegerAt(value: JsonValue | undefined, path: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  throw new HandoffValidationError([{ code: 'FIELD_OUT_OF_RANGE', path, message: 'must be an integer from 1' }]);
}

/**
 * A subtask's `attributes` and their `workflow` object (round, subtask index, limits): every agent
 * of the workflow reads them first; a message without them is refused naming the missing object.
 */
export function subtaskAttributes(data: Immutable<TaskTransferData>): {
  attributes: Immutable<JsonObject>;
  workflow: Immutable<JsonObject>;
} {
  const attributes = objectAt(data.attributes as JsonValue | undefined, SUBTASK_ATTRIBUTES_PATH);
  const workflow = objectAt(attributes.workflow as JsonValue | undefined, `${SUBTASK_ATTRIBUTES_PATH}/workflow`);
  return { attributes, workflow };
}
