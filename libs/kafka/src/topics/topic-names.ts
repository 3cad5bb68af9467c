/**
 * Baton's topic naming convention. Every name starts with one prefix (default `baton`) so several
 * Baton installations can share a cluster:
 *
 * | topic | name |
 * | --- | --- |
 * | the router's inbound topic | `<prefix>.handoffs.inbound` |
 * | an agent's (or pool's) inbox | `<prefix>.agent.<agent_id>.inbox` |
 * | lifecycle messages delivered to an agent (negotiated handoffs) | `<prefix>.agent.<agent_id>.control` |
 * | contexts sent by reference, in chunks (claim checks) | `<prefix>.contexts` |
 * | lifecycle, status and outcome events | `<prefix>.events` |
 * | side-effect ledger | `<prefix>.ledger` |
 * | agents' replies to the user | `<prefix>.user.replies` |
 * | operators' audit trail (replays) | `<prefix>.audit` |
 * | the agent registry: cards and heartbeats, key `<agent_id>/<instance_id>` (compacted) | `<prefix>.agents` |
 * | dead letters of any source topic | `<source>.dlq` |
 * | message ids a consumer group has processed | `<source>.processed` |
 */
export interface TopicNames {
  readonly prefix: string;
  readonly inbound: string;
  readonly events: string;
  readonly ledger: string;
  readonly userReplies: string;
  readonly audit: string;
  /** The agent registry: each running agent instance's card and last heartbeat (compacted). */
  readonly agents: string;
  /** Contexts too large for a record, stored in chunks and named by a TaskContextTransfer's context_ref. */
  readonly contexts: string;
  agentInbox(agentId: string): string;
  /** The lifecycle messages an agent must act on: HandoffRequests and TaskContextTransfers addressed to it. */
  agentControl(agentId: string): string;
}

export const DEFAULT_TOPIC_PREFIX = 'baton';

const LEGAL_NAME = /^[a-zA-Z0-9._-]+$/;

/** Kafka allows only [a-zA-Z0-9._-] in topic names, up to 249 characters. */
export function isLegalTopicName(name: string): boolean {
  return name.length > 0 && name.length <= 249 && LEGAL_NAME.test(name);
}

/** Agents whose topic names one TopicNames remembers; past that many, a name is made anew each time. */
const REMEMBERED_AGENTS = 1_024;

/**
 * `name(agentId)`, made once per agent: a router names an inbox for every message, and each name
 * made anew is a string that the producer hashes again when it groups records by topic, and that
 * the record holds until its transaction commits. Bounded, since an agent id can come from a message.
 */
function perAgent(name: (agentId: string) => string): (agentId: string) => string {
  const names = new Map<string, string>();
  return (agentId) => {
    let topic = names.get(agentId);
    if (topic === undefined) {
      topic = name(agentId);
      if (names.size < REMEMBERED_AGENTS) names.set(agentId, topic);
    }
    return topic;
  };
}

export function topicNames(prefix: string = DEFAULT_TOPIC_PREFIX): TopicNames {
  return {
    prefix,
    inbound: `${prefix}.handoffs.inbound`,
    events: `${prefix}.events`,
    ledger: `${prefix}.ledger`,
    userReplies: `${prefix}.user.replies`,
    audit: `${prefix}.audit`,
    agents: `${prefix}.agents`,
    contexts: `${prefix}.contexts`,
    agentInbox: perAgent((agentId) => `${prefix}.agent.${agentId}.inbox`),
    agentControl: perAgent((agentId) => `${prefix}.agent.${agentId}.control`),
  };
}

export function deadLetterTopic(source: string): string {
  return `${source}.dlq`;
}

/**
 * The compacted record of the message ids processed from `source`. It is partitioned like the
 * source, so the owner of a source partition finds that partition's ids in the same partition here.
 */
export function processedIdsTopic(source: string): string {
  return `${source}.processed`;
}
