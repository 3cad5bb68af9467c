import type { RegisteredAgent } from '@baton/agent-registry';
import type { AgentStatus } from '@baton/gateway-api';
import { describeConsumerGroups, topicNames, type ConsumerGroupStatus, type KafkaClient } from '@baton/kafka';

/**
 * The agent id a consumer group belongs to: `<prefix>.agent.<id>` for agents, `<prefix>.router`
 * for the router. Other groups (the processed-id and view readers, say) belong to no agent.
 */
export function agentIdOfGroup(prefix: string, groupId: string): string | undefined {
  if (groupId === `${prefix}.router`) return 'router';
  const agent = groupId.startsWith(`${prefix}.agent.`) ? groupId.slice(`${prefix}.agent.`.length) : '';
  return agent !== '' && !agent.includes('.') ? agent : undefined;
}

/** The agent whose control consumer group `groupId` is: `<prefix>.agent.<id>.control`. */
export function agentIdOfControlGroup(prefix: string, groupId: string): string | undefined {
  const agent = groupId.endsWith('.control') ? agentIdOfGroup(prefix, groupId.slice(0, -'.control'.length)) : undefined;
  return agent === 'router' ? undefined : agent;
}

/** The topic an agent's group consumes: its inbox, or the router's inbound topic. */
export function consumedTopicOf(prefix: string, agentId: string | undefined): string | undefined {
  if (agentId === undefined) return undefined;
  const topics = topicNames(prefix);
  return agentId === 'router' ? topics.inbound : topics.agentInbox(agentId);
}

/**
 * An agent's group status, with what the registry holds about it when it has registered;
 * `withdrawn` when every registration it made has been withdrawn (its `live` is then false).
 */
export function agentStatus(
  prefix: string,
  group: ConsumerGroupStatus,
  registered?: RegisteredAgent,
  withdrawn = false,
): AgentStatus {
  const byInstance = new Map(registered?.instances.map((instance) => [instance.instance_id, instance]));
  return {
    agent_id: agentIdOfGroup(prefix, group.groupId) ?? group.groupId,
    group_id: group.groupId,
    up: group.members.length > 0,
    state: group.state,
    lag: group.lag ?? null,
    control_lag: null,
    recent_outcomes: {},
    instances: group.members
      .map((member) => {
        const registration = byInstance.get(member.clientId);
        return {
          instance_id: member.clientId,
          host: member.host,
          ...(registration === undefined
            ? {}
            : { live: registration.live, last_heartbeat_at: registration.last_heartbeat_at }),
        };
      })
      .sort((a, b) => a.instance_id.localeCompare(b.instance_id)),
    ...registryFields(registered, withdrawn),
  };
}

function registryFields(
  registered: RegisteredAgent | undefined,
  withdrawn: boolean,
): Pick<AgentStatus, 'live' | 'card' | 'registrations'> {
  if (registered === undefined) return { live: withdrawn ? false : null, card: null, registrations: [] };
  return {
    live: registered.live,
    card: registered.card,
    registrations: registered.instances.map((instance) => ({
      instance_id: instance.instance_id,
      live: instance.live,
      last_heartbeat_at: instance.last_heartbeat_at,
      started_at: instance.started_at,
      version: instance.card.version,
      ...(instance.recent_failures === undefined ? {} : { recent_failures: instance.recent_failures }),
    })),
  };
}

/** What the registry view holds: agents with registrations, and every agent that ever registered. */
export interface AgentRegistrySnapshot {
  registered: readonly RegisteredAgent[];
  known: ReadonlySet<string>;
}

/**
 * Agents as the group coordinator and the registry know them: each agent's consumer group, with
 * its card and liveness when it has registered, plus registered agents that have no group (yet,
 * or any more), listed as down.
 */
export function agentDirectory(
  prefix: string,
  groups: readonly ConsumerGroupStatus[],
  registry: AgentRegistrySnapshot,
): AgentStatus[] {
  const { registered, known } = registry;
  const byAgent = new Map(registered.map((agent) => [agent.agent_id, agent]));
  const listed = groups.map((group) => {
    const agentId = agentIdOfGroup(prefix, group.groupId);
    const agent = agentId === undefined ? undefined : byAgent.get(agentId);
    return agentStatus(prefix, group, agent, agentId !== undefined && known.has(agentId));
  });
  const seen = new Set(listed.map((status) => status.agent_id));
  const registryOnly = registered
    .filter((agent) => !seen.has(agent.agent_id))
    .map((agent) =>
      agentStatus(prefix, { groupId: `${prefix}.agent.${agent.agent_id}`, state: 'Dead', members: [] }, agent),
    );
  return [...listed, ...registryOnly].sort((a, b) => a.agent_id.localeCompare(b.agent_id));
}

/**
 * Agent services and their instances, as the Kafka group coordinator knows them (every instance
 * of an agent is a member of the agent's consumer group while it runs), with the cards and
 * liveness of the agent registry.
 */
export async function listAgents(
  kafka: KafkaClient,
  prefix: string,
  registry: () => AgentRegistrySnapshot,
  recentOutcomes: () => ReadonlyMap<string, Record<string, number>> = () => new Map(),
): Promise<AgentStatus[]> {
  const topics = topicNames(prefix);
  const groups = await describeConsumerGroups(
    kafka,
    (groupId) => agentIdOfGroup(prefix, groupId) !== undefined || agentIdOfControlGroup(prefix, groupId) !== undefined,
    (groupId) => {
      const controlled = agentIdOfControlGroup(prefix, groupId);
      return controlled === undefined
        ? consumedTopicOf(prefix, agentIdOfGroup(prefix, groupId))
        : topics.agentControl(controlled);
    },
  );
  const controlLags = new Map(
    groups.flatMap((group) => {
      const agentId = agentIdOfControlGroup(prefix, group.groupId);
      return agentId === undefined ? [] : [[agentId, group.lag ?? null] as const];
    }),
  );
  const agents = agentDirectory(
    prefix,
    groups.filter((group) => agentIdOfControlGroup(prefix, group.groupId) === undefined),
    registry(),
  );
  const outcomes = recentOutcomes();
  return agents.map((agent) => ({
    ...agent,
    control_lag: controlLags.get(agent.agent_id) ?? null,
    recent_outcomes: outcomes.get(agent.agent_id) ?? {},
  }));
}
