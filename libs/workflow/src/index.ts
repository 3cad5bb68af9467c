export { SUBTASK_ATTRIBUTES_PATH, objectAt, positiveIntegerAt, subtaskAttributes } from './subtask-attributes.js';
