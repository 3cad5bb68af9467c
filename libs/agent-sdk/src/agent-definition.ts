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

/**
 * How the agent takes part in negotiated handoffs (seed 001). The environment overrides each field
 * it names, so an operator can change one instance's behaviour (drain it, say) without a release.
 */
export interface NegotiationOptions {
  /**
   * Handoffs queued in the agent's inbox (its consumer group's lag) at which it rejects a
   * HandoffRequest as overloaded; 0 rejects every one (a drain). BATON_AGENT_CAPACITY overrides it.
   * @default unlimited
   */
  capacity?: number;
  /** Seconds a HandoffAccept says the handoff will take. @default 5 */
  estimatedHandoffSeconds?: number;
  /**
   * Bytes of JSON up to which `act.requestHandoff` sends the context in the message; a larger one
   * is stored in the contexts topic and sent by reference. BATON_CONTEXT_INLINE_MAX_BYTES overrides it.
   * @default 256 KiB
   */
  inlineMaxBytes?: number;
}

export interface AgentDefinition {
  /** The agent's id: the recipient_id others address, and the name of its inbox. */
  id: string;
  handlers: Partial<Record<HandoffType, AgentHandler>>;
  /** The agent's card in the registry (`<prefix>.agents`), published at start and on every heartbeat. */
  card?: AgentCardInfo;
  /** How the agent answers HandoffRequests and sends contexts; see NegotiationOptions for the defaults. */
  negotiation?: NegotiationOptions;
  /** HTTP routes the agent adds beside /healthz, /readyz and /metrics. */
  routes?(app: FastifyInstance, context: HandoffServiceContext): void;
  /**
   * Set when handlers read state that the agent's own earlier handoffs wrote (records it emits and
   * reads back, as the planner's workflow store does): a task's next handoff then waits until the
   * previous one's outputs are committed. Other agents run a task's next handoff as soon as the
   * previous one finished, while its transaction is still on its way.
   */
  readsOwnOutputs?: boolean;
}

/** Identity function that gives an agent definition its type. */
export function defineAgent(definition: AgentDefinition): AgentDefinition {
  return definition;
}
