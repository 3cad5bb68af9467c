import type { FastifyInstance } from 'fastify';
import type { AgentMode } from '@baton/agent-registry';
import type { HandoffType } from '@baton/protocol';
import type { Handoff, HandoffServiceContext, Logger } from '@baton/runtime';
import type { AgentActions } from './agent-actions.js';

export interface HandlerContext {
  /** A logger bound to the handoff's task_id, message_id and correlation_id. */
  logger: Logger;
  /** 1 for the first attempt. */
  attempt: number;
}

/** Decides what to do with one handoff; acts only through `act`. Throw to fail (retriable unless a non-retriable BatonError). */
export type AgentHandler = (handoff: Handoff, act: AgentActions, context: HandlerContext) => void | Promise<void>;

/**
 * What the agent tells the registry about itself (seed 004's AgentInfo). Every field is optional;
 * see `agentCardInfo` for the defaults.
 */
export interface AgentCardInfo {
  /** A display name, e.g. SalesAgent; default: the id in PascalCase (sales_agent → SalesAgent). */
  name?: string;
  /** The area the agent belongs to, e.g. sales; default: `default`, as in seed 004. */
  domain?: string;
  description?: string;
  /** What the agent can do, by name or with a description; default: the handoff_types it handles. */
  skills?: (string | { name: string; description?: string })[];
  /** default: TEXT */
  input_modes?: AgentMode[];
  /** default: TEXT */
  output_modes?: AgentMode[];
  /** default: 1.0.0 */
  version?: string;
}

export interface AgentDefinition {
  /** The agent's id: the recipient_id others address, and the name of its inbox. */
  id: string;
  handlers: Partial<Record<HandoffType, AgentHandler>>;
  /** The agent's card in the registry (`<prefix>.agents`), published at start and on every heartbeat. */
  card?: AgentCardInfo;
  /** HTTP routes the agent adds beside /healthz, /readyz and /metrics. */
  routes?(app: FastifyInstance, context: HandoffServiceContext): void;
}

/** Identity function that gives an agent definition its type. */
export function defineAgent(definition: AgentDefinition): AgentDefinition {
  return definition;
}
