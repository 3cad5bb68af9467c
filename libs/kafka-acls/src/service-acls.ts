import {
  DEFAULT_TOPIC_PREFIX,
  contextReaderGroupPrefix,
  deadLetterTopic,
  isLegalTopicName,
  processedIdsTopic,
  topicNames,
  type AclGrant,
  type AclOperation,
  type AclPatternType,
  type AclResourceType,
  type PrincipalAcls,
  type TopicNames,
} from '@baton/kafka';
import { agentsOf, type AgentService, type BatonService, type Topology } from './topology.js';

export interface ServiceAclsOptions {
  /** The installation's topic prefix (BATON_TOPIC_PREFIX). @default 'baton' */
  prefix?: string;
  /** Principal names (without `User:`) by service, where they are not the service's name. */
  principals?: Readonly<Record<string, string>>;
}

/** Operations in one order, whatever order they were granted in. */
const OPERATION_ORDER: readonly AclOperation[] = [
  'read',
  'write',
  'create',
  'delete',
  'alter',
  'describe',
  'describe-configs',
  'alter-configs',
  'cluster-action',
  'idempotent-write',
  'all',
];

/** What creating a topic takes: createTopics lists, creates, then polls the new topic's metadata. */
const CREATE: readonly AclOperation[] = ['create', 'describe', 'describe-configs'];

/** Grants merged by resource pattern, in the order first granted. */
class Grants {
  private readonly grants = new Map<string, { grant: AclGrant; operations: Set<AclOperation> }>();

  add(resourceType: AclResourceType, patternType: AclPatternType, name: string, ...operations: AclOperation[][]): this {
    const key = `${resourceType}\u0000${patternType}\u0000${name}`;
    let entry = this.grants.get(key);
    if (entry === undefined) {
      entry = { grant: { resourceType, patternType, name, operations: [] }, operations: new Set() };
      this.grants.set(key, entry);
    }
    for (const operation of operations.flat()) entry.operations.add(operation);
    return this;
  }

  topic(name: string, ...operations: (AclOperation | readonly AclOperation[])[]): this {
    return this.add('topic', 'literal', name, operations.flat());
  }

  list(): AclGrant[] {
    return [...this.grants.values()].map(({ grant, operations }) => ({
      ...grant,
      operations: OPERATION_ORDER.filter((operation) => operations.has(operation)),
    }));
  }
}

/** The source topic of an exactly-once consumer and its companions: `.dlq` and `.processed`. */
function consumedTopic(grants: Grants, topic: string, ...extra: AclOperation[]): void {
  grants.topic(topic, 'read', extra, CREATE);
  grants.topic(deadLetterTopic(topic), 'write', CREATE);
  // The barrier and the markers are written, and read back by the instance's processed-id reader.
  grants.topic(processedIdsTopic(topic), 'read', 'write', CREATE);
}

/** An exactly-once consumer's group `groupId`, its readers' groups and its transactional ids, all under `groupId.`. */
function consumerGroup(grants: Grants, groupId: string): void {
  // Read: joining, committing offsets in a transaction; it implies describe (the lag's fetchOffsets).
  grants.add('group', 'literal', groupId, ['read']);
  grants.add('group', 'prefixed', `${groupId}.`, ['read']);
  // `<group>.<topic>.<partition>`, one transactional producer per source partition.
  grants.add('transactional-id', 'prefixed', `${groupId}.`, ['write', 'describe']);
}

/** Creating an agent's control topic and its companions (controlTopicCreator), and writing to it. */
function controlTopicOf(grants: Grants, topics: TopicNames, agentId: string): void {
  const control = topics.agentControl(agentId);
  grants.topic(control, 'write', CREATE);
  grants.topic(deadLetterTopic(control), CREATE);
  grants.topic(processedIdsTopic(control), CREATE);
}

function routerGrants(topics: TopicNames, topology: Topology): Grants {
  const grants = new Grants();
  consumedTopic(grants, topics.inbound);
  for (const agent of agentsOf(topology)) grants.topic(topics.agentInbox(agent.agentId), 'write', CREATE);
  grants.topic(topics.events, 'write', CREATE);
  // The agent registry: its liveness decides fallbacks and discovery.
  grants.topic(topics.agents, 'read', CREATE);
  consumerGroup(grants, `${topics.prefix}.router`);
  return grants;
}

function trackerGrants(topics: TopicNames, topology: Topology): Grants {
  const grants = new Grants();
  grants.topic(topics.events, 'read', 'write', CREATE);
  // TaskContextTransfers and the sender's retries go to receivers' control topics.
  for (const agent of agentsOf(topology)) controlTopicOf(grants, topics, agent.agentId);
  // Its events reader's groups and its decisions' transactional ids: `<prefix>.tracker.<instance>`.
  grants.add('group', 'prefixed', `${topics.prefix}.tracker.`, ['read']);
  grants.add('transactional-id', 'prefixed', `${topics.prefix}.tracker.`, ['write', 'describe']);
  return grants;
}

function gatewayGrants(topics: TopicNames, topology: Topology): Grants {
  const grants = new Grants();
  const agents = agentsOf(topology);
  // Publishing, and replaying dead letters to their source: the inbound topic or an inbox.
  grants.topic(topics.inbound, 'write', CREATE);
  for (const agent of agents) grants.topic(topics.agentInbox(agent.agentId), 'write');
  // Task timelines; opening negotiations (POST /v1/negotiations) writes the request and staged context.
  grants.topic(topics.events, 'read', 'write', CREATE);
  // The agents' replies to the user, streamed with a task's steps (GET /v1/tasks/{task_id}/events).
  grants.topic(topics.userReplies, 'read', CREATE);
  grants.topic(topics.contexts, 'write', CREATE);
  grants.topic(topics.audit, 'read', 'write', CREATE);
  grants.topic(topics.agents, 'read', CREATE);
  // Dead letters: read (listed by its TopicLister, which sees only what it may describe).
  grants.topic(deadLetterTopic(topics.inbound), 'read');
  for (const agent of agents) {
    grants.topic(deadLetterTopic(topics.agentInbox(agent.agentId)), 'read');
    controlTopicOf(grants, topics, agent.agentId);
    grants.topic(deadLetterTopic(topics.agentControl(agent.agentId)), 'read');
  }
  // GET /v1/agents: the router's and the agents' consumer groups, described.
  grants.add('group', 'literal', `${topics.prefix}.router`, ['describe']);
  for (const agent of agents) grants.add('group', 'literal', `${topics.prefix}.agent.${agent.agentId}`, ['describe']);
  // Its readers' groups and its senders' transactional ids: `<prefix>.gateway.<instance>[...]`.
  grants.add('group', 'prefixed', `${topics.prefix}.gateway.`, ['read']);
  grants.add('transactional-id', 'prefixed', `${topics.prefix}.gateway.`, ['write', 'describe']);
  return grants;
}

function agentGrants(topics: TopicNames, agent: AgentService, known: ReadonlySet<string>): Grants {
  const grants = new Grants();
  const { agentId } = agent;
  // Its inbox; the control consumer writes accepted handoffs into it.
  consumedTopic(grants, topics.agentInbox(agentId), 'write');
  consumedTopic(grants, topics.agentControl(agentId));
  // Handoffs to others go through the router; outcomes, lifecycle messages, ledger entries, replies.
  for (const topic of [topics.inbound, topics.events, topics.ledger, topics.userReplies]) {
    grants.topic(topic, 'write', CREATE);
  }
  // Its card and heartbeats, and the registry it reads for a rejection's suggestions.
  grants.topic(topics.agents, 'read', 'write', CREATE);
  // Contexts transferred by reference are fetched; the topic is created at start.
  grants.topic(topics.contexts, 'read', CREATE);
  for (const suffix of agent.stateTopics ?? []) {
    grants.topic(`${topics.prefix}.agent.${agentId}.${suffix}`, 'read', 'write', CREATE);
  }
  const asks = agent.negotiatesWith ?? [];
  if (asks.length > 0) grants.topic(topics.contexts, 'write');
  for (const receiver of asks) {
    if (!known.has(receiver)) {
      throw new Error(`${agent.service} negotiates with "${receiver}", which is no agent of the topology`);
    }
    if (receiver !== agentId) controlTopicOf(grants, topics, receiver);
  }
  // Inbox and control consumers, registry, state and processed-id readers, answer publishers.
  consumerGroup(grants, `${topics.prefix}.agent.${agentId}`);
  grants.add('group', 'prefixed', contextReaderGroupPrefix(topics.contexts), ['read']);
  return grants;
}

function checkTopology(topology: Topology): void {
  const services = new Set<string>();
  const agentIds = new Set<string>();
  for (const service of topology.services) {
    if (services.has(service.service)) throw new Error(`service "${service.service}" is listed twice`);
    services.add(service.service);
    if (service.kind !== 'agent') continue;
    // A dot would let the agent's `<group>.` prefixes reach another agent's groups.
    if (!/^[a-zA-Z0-9_-]+$/.test(service.agentId)) {
      throw new Error(`agent id "${service.agentId}" of ${service.service} must match [a-zA-Z0-9_-]+`);
    }
    if (agentIds.has(service.agentId)) throw new Error(`agent id "${service.agentId}" is listed twice`);
    agentIds.add(service.agentId);
  }
}

function grantsOf(service: BatonService, topics: TopicNames, topology: Topology, known: ReadonlySet<string>): Grants {
  switch (service.kind) {
    case 'router':
      return routerGrants(topics, topology);
    case 'tracker':
      return trackerGrants(topics, topology);
    case 'gateway':
      return gatewayGrants(topics, topology);
    case 'agent':
      return agentGrants(topics, service, known);
  }
}

/**
 * Each service's principal (`User:<service>`, or the name `principals` gives) and the allow rules
 * it needs, and no more: the topics it reads, writes and creates, its consumer groups (its
 * readers' too) and its transactional ids, all of installation `prefix`. No service is granted
 * anything on the cluster resource: metadata is free, idempotent producers need only WRITE on a
 * topic (Kafka 2.8+), and a service describes only groups and topics named here.
 */
export function serviceAcls(topology: Topology, options: ServiceAclsOptions = {}): PrincipalAcls[] {
  const prefix = options.prefix ?? DEFAULT_TOPIC_PREFIX;
  if (!isLegalTopicName(prefix)) throw new Error(`"${prefix}" is not a legal topic prefix`);
  checkTopology(topology);
  const topics = topicNames(prefix);
  const known = new Set(agentsOf(topology).map((agent) => agent.agentId));
  return topology.services.map((service) => ({
    service: service.service,
    principal: `User:${options.principals?.[service.service] ?? service.service}`,
    grants: grantsOf(service, topics, topology, known).list(),
  }));
}
