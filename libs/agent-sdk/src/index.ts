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
  DEFAULT_ESTIMATED_HANDOFF_SECONDS,
  type NegotiationConfig,
} from './negotiation/negotiation-config.js';
// What opening a negotiation takes is the runtime's, so the gateway opens them with the same code and limits.
export { HANDOFF_CONTEXT_SCHEMA_VERSION, DEFAULT_INLINE_MAX_BYTES, type HandoffContextData } from '@baton/runtime';
export { CLAIM_CHECK_HEADER, INBOX_RECORD_MAX_BYTES } from './negotiation/inbox-claim-check.js';
