export {
  defineAgent,
  type AgentCardInfo,
  type AgentDefinition,
  type AgentHandler,
  type HandlerContext,
} from './agent-definition.js';
export { agentCard, agentCardInfo, pascalCase, type AgentCardFields } from './agent-card.js';
export { AgentActions, USER_RECIPIENT } from './agent-actions.js';
export { agentService, agentGroupId } from './agent-service.js';
export { runAgent } from './run-agent.js';
export { deriveHandoff, type AgentAction, type NextHandoff } from './derive-handoff.js';
export { ledgerRecord, parseLedgerEntry, type LedgerEntry } from './ledger-entry.js';
