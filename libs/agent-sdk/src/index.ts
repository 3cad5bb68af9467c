export {
  defineAgent,
  type AgentCardInfo,
  type AgentDefinition,
  type AgentHandler,
  type HandlerContext,
  type NegotiationOptions,
} from './agent-definition.js';
export { agentCard, agentCardInfo, pascalCase, type AgentCardFields } from './agent-card.js';
export { AgentActions, USER_RECIPIENT, type AgentActionsContext, type RequestedHandoff } from './agent-actions.js';
export { agentService } from './agent-service.js';
export { agentGroupId, controlGroupId } from './agent-groups.js';
export { runAgent } from './run-agent.js';
export { deriveHandoff, type AgentAction, type NextHandoff } from './derive-handoff.js';
export { ledgerRecord, parseLedgerEntry, type LedgerEntry } from './ledger-entry.js';
export {
  decideOnRequest,
  isAgentOfType,
  type CapabilityCard,
  type RequestCircumstances,
  type RequestDecision,
} from './negotiation/decide-on-request.js';
export {
  loadNegotiationConfig,
  DEFAULT_INLINE_MAX_BYTES,
  DEFAULT_ESTIMATED_HANDOFF_SECONDS,
  type NegotiationConfig,
} from './negotiation/negotiation-config.js';
export { HANDOFF_CONTEXT_SCHEMA_VERSION, type HandoffContextData } from './negotiation/handoff-context.js';
export { CLAIM_CHECK_HEADER, INBOX_RECORD_MAX_BYTES } from './negotiation/inbox-claim-check.js';
