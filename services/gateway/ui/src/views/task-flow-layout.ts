import type { TimelineEvent } from '@baton/gateway-api';
import { toneOf, type Tone } from '../dom.js';
import { messageTone } from './step-tones.js';

/**
 * One row of a task's sequence diagram: a handoff or a message between two lanes (an arrow), or
 * what became of a handoff at one agent (a note on its lane).
 */
export type FlowMark =
  | { kind: 'arrow'; row: number; from: string; to: string; label: string; tone: Tone; dashed: boolean }
  | { kind: 'note'; row: number; lane: string; label: string; tone: Tone };

export interface FlowLayout {
  /** The agents, in the order they first take part. */
  lanes: string[];
  marks: FlowMark[];
  /** Rows: one per step, in the timeline's order. */
  rows: number;
}

/** Agents named comma-separated, as targets are. */
const names = (agents: string | undefined): string[] =>
  agents === undefined ? [] : agents.split(',').filter((agent) => agent !== '');

/**
 * A task's steps as a sequence diagram, the router left out as the lane it passes through: each
 * routed handoff is an arrow from its sender to the agent it was routed to, labelled with its
 * handoff type (a replay or a retry is one more arrow); a recipient the router did not deliver to
 * is a dashed red arrow; each lifecycle message of a negotiation is an arrow from its sender to its
 * receiver (dashed when the state machine refused it); what became of a handoff at an agent
 * (completed, handed off, dead-lettered with its code) is a note on that agent's lane.
 */
export function flowLayout(steps: readonly TimelineEvent[]): FlowLayout {
  const lanes: string[] = [];
  const lane = (agent: string) => {
    if (!lanes.includes(agent)) lanes.push(agent);
    return agent;
  };
  const marks: FlowMark[] = [];
  steps.forEach((step, row) => {
    if (step.kind === 'lifecycle') {
      marks.push({
        kind: 'arrow',
        row,
        from: lane(step.sender),
        to: lane(step.receiver),
        label: step.refused ? `${step.message_type} (refused)` : step.message_type,
        tone: step.refused ? 'bad' : messageTone(step),
        dashed: step.refused !== undefined,
      });
      return;
    }
    if (step.kind === 'staged') {
      marks.push({ kind: 'note', row, lane: lane(step.sender), label: 'context staged', tone: 'info' });
      return;
    }
    const tone = toneOf(step.outcome);
    const routed = step.outcome === 'ROUTED' || step.outcome === 'NOT_DELIVERED';
    if (step.agent_id === 'router' && routed) {
      const from = lane(step.sender ?? 'router');
      for (const to of names(step.target)) {
        marks.push({
          kind: 'arrow',
          row,
          from,
          to: lane(to),
          label: step.outcome === 'ROUTED' ? step.handoff_type : `${step.handoff_type}: not delivered`,
          tone,
          dashed: step.outcome === 'NOT_DELIVERED',
        });
      }
      return;
    }
    const towards = names(step.target);
    const label =
      step.outcome === 'DEAD_LETTERED'
        ? `DEAD_LETTERED${step.error_code ? ` ${step.error_code}` : ''}`
        : towards.length > 0
          ? `${step.outcome} → ${towards.join(', ')}`
          : step.outcome;
    marks.push({ kind: 'note', row, lane: lane(step.agent_id), label, tone });
  });
  return { lanes, marks, rows: steps.length };
}
