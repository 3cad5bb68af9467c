/** What a Baton service is, as far as Kafka is concerned: which topics, groups and transactions it uses. */
export type ServiceKind = 'router' | 'tracker' | 'gateway' | 'agent';

/** The router, the tracker or the gateway: one of each per installation. */
export interface PlatformService {
  /** The service's folder under services/, and its principal's name unless overridden. */
  service: string;
  kind: 'router' | 'tracker' | 'gateway';
}

/** An agent service: consumes `<prefix>.agent.<agentId>.inbox` and `.control`. */
export interface AgentService {
  service: string;
  kind: 'agent';
  /** The agent id of its definition (`defineAgent({ id })`). */
  agentId: string;
  /**
   * Topics the agent keeps for itself, `<prefix>.agent.<agentId>.<suffix>`, read and written by it
   * alone: the planner's `workflows`, the human agent's `pending`.
   */
  stateTopics?: readonly string[];
  /**
   * The agents it asks to take a task over with `act.requestHandoff` (a negotiated handoff): it
   * writes a HandoffRequest to their control topics and may create them, and stores large contexts.
   * Empty (the default): it takes part in negotiations as a receiver only.
   */
  negotiatesWith?: readonly string[];
}

export type BatonService = PlatformService | AgentService;

export interface Topology {
  services: readonly BatonService[];
}

/**
 * Baton's services as services/ holds them, with their agents' ids (see each
 * services/<name>/src/agent.ts). libs/kafka-acls/src/topology.test.ts checks this list against
 * services/: a new service with no principal here fails it.
 */
export function batonTopology(): Topology {
  return {
    services: [
      { service: 'router', kind: 'router' },
      { service: 'tracker', kind: 'tracker' },
      { service: 'gateway', kind: 'gateway' },
      { service: 'triage-agent', kind: 'agent', agentId: 'triage_agent' },
      { service: 'sales-agent', kind: 'agent', agentId: 'sales_agent' },
      { service: 'issues-and-repairs-agent', kind: 'agent', agentId: 'issues_and_repairs_agent' },
      { service: 'human-agent', kind: 'agent', agentId: 'human_agent', stateTopics: ['pending'] },
      { service: 'customer-service-agent', kind: 'agent', agentId: 'customer_service_agent' },
      { service: 'technical-support-agent', kind: 'agent', agentId: 'technical_support_agent_pool' },
      { service: 'level3-network-expert-agent', kind: 'agent', agentId: 'level3_network_expert_agent_pool' },
      { service: 'planner-agent', kind: 'agent', agentId: 'planner_agent', stateTopics: ['workflows'] },
      { service: 'worker-agent', kind: 'agent', agentId: 'worker_agent' },
      { service: 'compiler-agent', kind: 'agent', agentId: 'compiler_agent' },
      { service: 'reviewer-agent', kind: 'agent', agentId: 'reviewer_agent' },
    ],
  };
}

/** The agents of a topology, in its order. */
export function agentsOf(topology: Topology): AgentService[] {
  return topology.services.filter((service): service is AgentService => service.kind === 'agent');
}
