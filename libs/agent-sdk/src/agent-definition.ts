import type { FastifyInstance } from 'fastify';
import type { AgentCard, AgentMode } from '@baton/agent-registry';
import type { NegotiationOptions } from '@baton/negotiation';
import type { HandoffOf, HandoffType } from '@baton/protocol';
import type { Component, Handoff, HandoffServiceContext, Logger } from '@baton/runtime';
import type { AgentActions } from './agent-actions.js';

export interface HandlerContext {
  /** A logger bound to the handoff's task_id, message_id and correlation_id. */
  logger: Logger;
  /** 1 for the first attempt. */
  attempt: number;
  /**
   * Another agent's card from the agent registry (name, domain, description, skills), at most 30 s
   * old; undefined when it has not registered. A model agent describes its handoff tools with them.
   */
  agentCard(agentId: string): Promise<AgentCard | undefined>;
  /**
   * Tells the agent registry, with the instance's next heartbeats, that something the handler
   * depends on failed (its model: MODEL_UNAVAILABLE; a tool: TOOL_FAILED or the tool's code):
   * the overview names the agent while the failures last, before anything is dead-lettered.
   */
  noteFailure(code: string): void;
}

/**
 * Decides what to do with one handoff of type `T`; acts only through `act`. Throw to fail
 * (retriable unless a non-retriable BatonError). The handoff's `payload.data` is typed by `T`
 * (`HandoffDataByType[T]`): the agent calls a handler with handoffs of its key's type only, each
 * validated against that type's data schema when it was decoded. One handler for several keys
 * takes their union, e.g. `AgentHandler<'APPROVAL_REQUEST' | 'ESCALATION'>`; `AgentHandler` alone
 * takes a handoff of any type.
 */
export type AgentHandler<T extends HandoffType = HandoffType> = (
  handoff: HandoffOf<T>,
  act: AgentActions,
  context: HandlerContext,
) => void | Promise<void>;

/** An agent's handlers by handoff_type, each typed by its key: `TASK_TRANSFER` gets a HandoffOf<'TASK_TRANSFER'>. */
export type AgentHandlers = { [T in HandoffType]?: AgentHandler<T> };

/**
 * The agent's handler for `handoff`, looked up by the handoff's own handoff_type, so that the
 * handler of key T is only ever called with a HandoffOf<T>; undefined when the agent has none.
 */
export function handlerFor(handlers: AgentHandlers, handoff: Handoff): AgentHandler | undefined {
  return handlerOfType(handlers, handoff.payload.handoff_type);
}

/**
 * `handlers[type]`, typed by `type`. TypeScript cannot tie a key and a handoff together when both
 * are the union HandoffType (a lookup by it types every handler as needing a handoff of all types
 * at once), and accepts it for a generic T: with T = HandoffType the handler returned is typed to
 * take a handoff of any type. That is true of it only when it is called with a handoff of the key's
 * type, which handlerFor ensures by passing the handoff's own handoff_type.
 */
function handlerOfType<T extends HandoffType>(handlers: AgentHandlers, type: T): AgentHandler<T> | undefined {
  return handlers[type];
}

/**
 * What the agent tells the registry about itself (its agent card). Every field is optional;
 * see `agentCardInfo` for the defaults.
 */
export interface AgentCardInfo {
  /** A display name, e.g. SalesAgent; default: the id in PascalCase (sales_agent → SalesAgent). */
  name?: string;
  /** The area the agent belongs to, e.g. sales; default: `default`. */
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
  /** A handler per handoff_type the agent takes; a handoff of another type fails with NO_HANDLER. */
  handlers: AgentHandlers;
  /** The agent's card in the registry (`<prefix>.agents`), published at start and on every heartbeat. */
  card?: AgentCardInfo;
  /** How the agent answers HandoffRequests and sends contexts; see NegotiationOptions for the defaults. */
  negotiation?: NegotiationOptions;
  /** HTTP routes the agent adds beside /healthz, /readyz and /metrics. */
  routes?(app: FastifyInstance, context: HandoffServiceContext): void;
  /**
   * What the agent holds while it runs besides its consumers (a store it reads, a producer of its
   * own), in start order: started before its first handoff, closed after its last has committed.
   */
  components?(context: HandoffServiceContext): Component[];
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
