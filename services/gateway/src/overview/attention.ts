import type { AgentStatus, AttentionItem, DeadLetterStats } from '@baton/gateway-api';
import type { GrowingLag } from './lag-trend.js';

/**
 * The failures an agent's live instances told of with their last heartbeats (its model, its
 * tools), summed by code, most first: `MODEL_UNAVAILABLE 67, TOOL_FAILED 2`; undefined when none.
 */
function liveFailures(agent: AgentStatus): string | undefined {
  const counts = new Map<string, number>();
  for (const registration of agent.registrations) {
    if (!registration.live) continue;
    for (const [code, count] of Object.entries(registration.recent_failures ?? {})) {
      counts.set(code, (counts.get(code) ?? 0) + count);
    }
  }
  if (counts.size === 0) return undefined;
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([code, count]) => `${code} ${count}`)
    .join(', ');
}

/**
 * What is unhealthy, most serious first: agents no instance consumes for (their inboxes fill up),
 * agents registered with no live instance, agents whose model or tools are failing, agents whose
 * inbox lag keeps growing, agents holding stuck tasks (EXECUTING past their
 * deadline or silent too long), most first, then DLQ topics holding dead letters, most first.
 */
export function attentionOf(
  agents: readonly AgentStatus[],
  deadLetters: DeadLetterStats,
  stuck: readonly { owner: string; count: number }[],
  growing: readonly GrowingLag[] = [],
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
    ...agents.flatMap((agent) => {
      const failures = liveFailures(agent);
      return failures === undefined
        ? []
        : [
            {
              kind: 'agent_failing' as const,
              subject: agent.agent_id,
              detail: `what it depends on is failing, in the last minute: ${failures}`,
            },
          ];
    }),
    ...growing.map((lag) => ({
      kind: 'lag_growing' as const,
      subject: lag.agent_id,
      detail: `its inbox lag grew from ${lag.from} to ${lag.to} offsets over the last ${lag.seconds} s`,
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
