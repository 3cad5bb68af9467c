import { parseAgentCard, type AgentCard, type AgentSkill } from '@baton/agent-registry';
import { BatonError } from '@baton/errors';
import { HANDOFF_TYPES, type HandoffType } from '@baton/protocol';
import type { AgentDefinition } from './agent-definition.js';

/** The agent-level fields of a card: the definition's card info with its defaults filled in. */
export type AgentCardFields = Pick<
  AgentCard,
  'agent_id' | 'name' | 'domain' | 'description' | 'skills' | 'input_modes' | 'output_modes' | 'version'
>;

/** sales_agent → SalesAgent, level3-network → Level3Network. */
export function pascalCase(id: string): string {
  return id
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/**
 * The definition's card info with defaults: name = the id in PascalCase, domain `default` (the
 * registry's default domain), skills = the handoff_types it has handlers for, TEXT in and out, version
 * 1.0.0.
 */
export function agentCardInfo(agent: Pick<AgentDefinition, 'id' | 'handlers' | 'card'>): AgentCardFields {
  const info = agent.card ?? {};
  const handled = HANDOFF_TYPES.filter((type: HandoffType) => agent.handlers[type] !== undefined);
  const skills: AgentSkill[] = (info.skills ?? handled).map((skill) =>
    typeof skill === 'string' ? { name: skill } : { ...skill },
  );
  return {
    agent_id: agent.id,
    name: info.name ?? pascalCase(agent.id),
    domain: info.domain ?? 'default',
    ...(info.description === undefined ? {} : { description: info.description }),
    skills,
    input_modes: [...(info.input_modes ?? ['TEXT'])],
    output_modes: [...(info.output_modes ?? ['TEXT'])],
    version: info.version ?? '1.0.0',
  };
}

/**
 * The full card of one running instance, checked: a definition whose card info is malformed (an
 * unknown mode, an empty skill name) stops the agent at start with CONFIG_INVALID.
 */
export function agentCard(
  agent: Pick<AgentDefinition, 'id' | 'handlers' | 'card'>,
  instance: { instanceId: string; startedAt: Date; heartbeatIntervalMs: number },
): AgentCard {
  const card = {
    ...agentCardInfo(agent),
    instance_id: instance.instanceId,
    started_at: instance.startedAt.toISOString(),
    heartbeat_interval_ms: instance.heartbeatIntervalMs,
  };
  try {
    return parseAgentCard(card);
  } catch (cause) {
    throw new BatonError('CONFIG_INVALID', `agent ${agent.id}: ${(cause as Error).message}`, {
      cause,
      path: (cause as { path?: string }).path,
    });
  }
}
