export {
  defineAgent,
  type AgentCardInfo,
  type AgentDefinition,
  type AgentHandler,
  type AgentHandlers,
  type HandlerContext,
} from './agent-definition.js';
// The type of AgentDefinition's `negotiation`, so an agent's definition needs no other import.
export type { NegotiationOptions } from '@baton/negotiation';
export { agentCard, agentCardInfo, pascalCase, type AgentCardFields } from './agent-card.js';
export { AgentActions, USER_RECIPIENT, type AgentActionsContext, type RequestedHandoff } from './agent-actions.js';
export { agentService } from './agent-service.js';
export { agentGroupId, controlGroupId } from './agent-groups.js';
export { runAgent, type AgentFactory } from './run-agent.js';
export { deriveHandoff, type AgentAction, type NextHandoff } from './derive-handoff.js';
export { ledgerRecord, parseLedgerEntry, type LedgerEntry, type ToolCallRecord } from './ledger-entry.js';
