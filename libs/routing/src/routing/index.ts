export { loadRoutingTable, parseRoutingTable } from './load-routing-table.js';
export { ROUTING_TABLE_VERSION } from './compile-routing-table.js';
export {
  routeHandoff,
  WITHOUT_REGISTRY,
  type AgentLiveness,
  type RouteDecision,
  type RoutableMessage,
  type Undelivered,
} from './route-handoff.js';
export {
  DEFAULT_RULE_ID,
  DISCOVERY_RULE_ID,
  MATCH_FIELDS,
  RECIPIENT_RULE_ID,
  type MatchField,
  type RoutingRule,
  type RoutingTable,
  type RuleMatch,
} from './routing-table.js';
export type { TableProblem } from './table-problem.js';
