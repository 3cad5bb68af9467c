import type { FastifyInstance } from 'fastify';
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

export interface AgentDefinition {
  /** The agent's id: the recipient_id others address, and the name of its inbox. */
  id: string;
  handlers: Partial<Record<HandoffType, AgentHandler>>;
  /** HTTP routes the agent adds beside /healthz, /readyz and /metrics. */
  routes?(app: FastifyInstance, context: HandoffServiceContext): void;
}

/** Identity function that gives an agent definition its type. */
export function defineAgent(definition: AgentDefinition): AgentDefinition {
  return definition;
}
