import type { AgentStatus, AttentionItem, DeadLetterStats } from '@baton/gateway-api';

/**
 * What is unhealthy, most serious first: agents no instance consumes for (their inboxes fill up),
 * agents registered with no live instance, agents holding stuck tasks (EXECUTING past their
 * deadline or silent too long), most first, then DLQ topics holding dead letters, most first.
 */
export function attentionOf(
  agents: readonly AgentStatus[],
  deadLetters: DeadLetterStats,
  stuck: readonly { owner: string; count: number }[],
): AttentionItem[] {
  // Offsets, not handoffs: transactions' commit markers take offsets too (see AgentStatus.lag).
  const waiting = (agent: AgentStatus) =>
    agent.lag === null || agent.lag === 0 ? '' : `; its inbox is ${agent.lag} offsets behind`;
  return [
    ...agents
      .filter((agent) => !agent.up)
      .map((agent) => ({
        kind: 'agent_down' as const,
        subject: agent.agent_id,
        detail: `no instance is consuming${waiting(agent)}`,
      })),
    ...agents
      .filter((agent) => agent.up && agent.live === false)
      .map((agent) => ({
        kind: 'agent_not_live' as const,
        subject: agent.agent_id,
        detail: 'its instances consume but none has sent a heartbeat within the liveness window',
      })),
    ...stuck.map(({ owner, count }) => ({
      kind: 'stuck_tasks' as const,
      subject: owner,
      detail: `holds ${count} stuck task${count === 1 ? '' : 's'}: executing past a deadline, or without an event for too long`,
    })),
    ...deadLetters.by_topic.map((topic) => ({
      kind: 'dead_letters' as const,
      subject: topic.topic,
      detail: `${topic.count} dead letter${topic.count === 1 ? '' : 's'} from ${topic.source_topic}`,
    })),
  ];
}
