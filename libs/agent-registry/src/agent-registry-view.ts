import { parseRegistrationKey, type AgentCard, type AgentRegistration } from './agent-card.js';
import { isLive } from './liveness.js';

/** One registered instance of an agent, as the view sees it at a given time. */
export interface InstanceStatus {
  instance_id: string;
  live: boolean;
  last_heartbeat_at: string;
  started_at: string;
  card: AgentCard;
  /** Failures by code its last heartbeat told of (its model, its tools); absent when none. */
  recent_failures?: Record<string, number>;
}

/** An agent with at least one registration in the topic. */
export interface RegisteredAgent {
  agent_id: string;
  /** At least one instance is live. */
  live: boolean;
  /** The card of the instance that heartbeated last (instances of one agent normally agree). */
  card: AgentCard;
  /** Every instance still in the topic, live or not, by instance_id. */
  instances: InstanceStatus[];
}

/**
 * Whether the router may send an agent work:
 * - `live`: at least one instance heartbeated within its liveness window;
 * - `not-live`: the agent has registered (since this view started reading) but every registration
 *   has expired or been withdrawn;
 * - `unregistered`: the view has never seen the agent register (an agent that predates the
 *   registry, or one whose records compaction has long removed): liveness does not apply to it.
 */
export type AgentAvailability = 'live' | 'not-live' | 'unregistered';

export interface AgentRegistryViewOptions {
  /** BATON_LIVENESS_WINDOW_MS; undefined: 3 times each instance's own heartbeat interval. */
  livenessWindowMs?: number;
}

/**
 * The registry as a plain in-memory structure: apply the records of `<prefix>.agents` in order and
 * ask who is live. Time is always passed in, so the answers are pure functions of the records read
 * and `now`.
 */
export class AgentRegistryView {
  /** agent_id → instance_id → its latest registration. */
  private readonly registrations = new Map<string, Map<string, AgentRegistration>>();
  /** Every agent ever registered, tombstoned ones included. */
  private readonly known = new Set<string>();

  constructor(private readonly options: AgentRegistryViewOptions = {}) {}

  /** Applies one record: a registration or heartbeat, or (null) a tombstone. Keys that are not `<agent>/<instance>` are ignored. */
  apply(key: string, registration: AgentRegistration | null): void {
    const parsed = parseRegistrationKey(key);
    if (parsed === undefined) return;
    const { agentId, instanceId } = parsed;
    this.known.add(agentId);
    const instances = this.registrations.get(agentId);
    if (registration === null) {
      instances?.delete(instanceId);
      if (instances?.size === 0) this.registrations.delete(agentId);
      return;
    }
    if (instances === undefined) this.registrations.set(agentId, new Map([[instanceId, registration]]));
    else instances.set(instanceId, registration);
  }

  /** Whether the view holds a registration of that instance (a tombstone removes it). */
  hasInstance(agentId: string, instanceId: string): boolean {
    return this.registrations.get(agentId)?.has(instanceId) ?? false;
  }

  /** Every agent that has registered since the view started reading, withdrawn ones included. */
  knownAgentIds(): string[] {
    return [...this.known].sort();
  }

  availability(agentId: string, now: Date): AgentAvailability {
    if (!this.known.has(agentId)) return 'unregistered';
    return this.hasLiveInstance(agentId, now) ? 'live' : 'not-live';
  }

  /**
   * Asked for every handoff the router dispatches: a walk of the agent's instances, without the
   * sorted InstanceStatus list liveInstances builds (which was 2% of a loaded router's CPU).
   */
  private hasLiveInstance(agentId: string, now: Date): boolean {
    const instances = this.registrations.get(agentId);
    if (instances === undefined) return false;
    for (const registration of instances.values()) {
      if (isLive(registration, now, this.options.livenessWindowMs)) return true;
    }
    return false;
  }

  /** True unless the agent has registered and none of its instances is live now. */
  mayRoute(agentId: string, now: Date): boolean {
    return this.availability(agentId, now) !== 'not-live';
  }

  /** Every instance of `agentId` still in the topic, live or not, by instance_id. */
  instances(agentId: string, now: Date): InstanceStatus[] {
    const instances = this.registrations.get(agentId);
    if (instances === undefined) return [];
    return [...instances.entries()]
      .map(([instanceId, registration]) => ({
        instance_id: instanceId,
        live: isLive(registration, now, this.options.livenessWindowMs),
        last_heartbeat_at: registration.last_heartbeat_at,
        started_at: registration.card.started_at,
        card: registration.card,
        ...(registration.failures === undefined ? {} : { recent_failures: registration.failures.counts }),
      }))
      .sort((a, b) => a.instance_id.localeCompare(b.instance_id));
  }

  liveInstances(agentId: string, now: Date): InstanceStatus[] {
    return this.instances(agentId, now).filter((instance) => instance.live);
  }

  /** Every agent with a registration in the topic, by agent_id. */
  agents(now: Date): RegisteredAgent[] {
    return [...this.registrations.keys()]
      .sort()
      .map((agentId) => this.agent(agentId, now))
      .filter((agent): agent is RegisteredAgent => agent !== undefined);
  }

  agent(agentId: string, now: Date): RegisteredAgent | undefined {
    const instances = this.instances(agentId, now);
    if (instances.length === 0) return undefined;
    const newest = instances.reduce((a, b) =>
      Date.parse(b.last_heartbeat_at) > Date.parse(a.last_heartbeat_at) ? b : a,
    );
    return { agent_id: agentId, live: instances.some((instance) => instance.live), card: newest.card, instances };
  }

  /** Agents whose card lists the skill; only live ones unless `liveOnly` is false. */
  bySkill(skill: string, now: Date, { liveOnly = true } = {}): RegisteredAgent[] {
    return this.where((card) => card.skills.some((candidate) => candidate.name === skill), now, liveOnly);
  }

  /** Agents of the domain; only live ones unless `liveOnly` is false. */
  byDomain(domain: string, now: Date, { liveOnly = true } = {}): RegisteredAgent[] {
    return this.where((card) => card.domain === domain, now, liveOnly);
  }

  /**
   * The live agents a capability term names, by agent_id: those whose card's name, domain or one
   * of whose skills equals it (case-sensitive). Used by the router's discovery step.
   */
  discover(term: string, now: Date): string[] {
    return this.where(
      (card) => card.name === term || card.domain === term || card.skills.some((skill) => skill.name === term),
      now,
      true,
    ).map((agent) => agent.agent_id);
  }

  private where(test: (card: AgentCard) => boolean, now: Date, liveOnly: boolean): RegisteredAgent[] {
    return this.agents(now).filter((agent) => {
      const instances = liveOnly ? agent.instances.filter((instance) => instance.live) : agent.instances;
      return instances.some((instance) => test(instance.card));
    });
  }
}
