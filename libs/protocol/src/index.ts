export { HANDOFF_TYPES, PRIORITIES, isHandoffType, type HandoffType, type Priority } from './handoff/handoff-type.js';
export type * from './handoff/handoff-data.js';
export type * from './handoff/handoff-message.js';
export {
  PROTOCOL_VERSION,
  SUPPORTED_MAJOR,
  parseProtocolVersion,
  versionCompatibility,
  type ProtocolVersion,
} from './handoff/protocol-version.js';
export { LIFECYCLE_MESSAGE_TYPES } from './lifecycle/lifecycle-message.js';
export type * from './lifecycle/lifecycle-message.js';
export { validateHandoff, parseHandoff } from './validation/validate-handoff.js';
export type { ParseOptions } from './validation/parsed-copy.js';
export { compileValidators, type ValidatedKind } from './validation/compile-validators.js';
export { HandoffValidationError } from './validation/handoff-validation-error.js';
export { issueFromAjvError } from './validation/ajv-issues.js';
export { loadHandoffSchemas, type HandoffSchemas, type JsonSchema } from './validation/schema-files.js';
export {
  VALIDATION_ISSUE_CODES,
  type ValidationIssue,
  type ValidationIssueCode,
} from './validation/validation-issue.js';
export {
  buildHandoff,
  INITIAL_WORKFLOW_STATE,
  type BuildOptions,
  type HandoffDraft,
} from './builders/build-handoff.js';
export { buildLifecycleMessage, type LifecycleDraft } from './builders/build-lifecycle-message.js';
export { deepFreeze } from './builders/deep-freeze.js';
export {
  HANDOFF_OUTCOMES,
  ROUTER_AGENT_ID,
  parseHandoffOutcome,
  type HandoffOutcome,
  type HandoffOutcomeKind,
} from './events/handoff-outcome.js';
export { nameBasedUuid, BATON_ID_NAMESPACE } from './builders/name-based-id.js';
export { randomId } from './builders/random-id.js';
export { RecencyMap } from './collections/recency-map.js';
export { validateLifecycleMessage, parseLifecycleMessage } from './validation/validate-lifecycle.js';
export { loadLifecycleSchemas, payloadSchemaFile, type LifecycleSchemas } from './validation/lifecycle-schema-files.js';
export { contextTransferMode, type ContextTransferMode } from './lifecycle/context-transfer.js';
export { parseStagedContext, type StagedContext, type HandoffTerms } from './lifecycle/staged-context.js';
export { isoDurationMs } from './handoff/iso-duration.js';
export type { TaskEvent } from './events/task-event.js';
export {
  ENCRYPTED_VALUE_PREFIX,
  PERSONAL_DATA_KEYWORD,
  isEncryptedValue,
  valueAtPointer,
} from './validation/encrypted-value.js';
