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
    agentInbox: (agentId) => `${prefix}.agent.${agentId}.inbox`,
    agentControl: (agentId) => `${prefix}.agent.${agentId}.control`,
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
