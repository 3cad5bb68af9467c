import { BatonError } from '@baton/errors';
import { ROUTER_AGENT_ID, type HandoffOutcomeKind, type Immutable, type HandoffOutcome } from '@baton/protocol';

/**
 * The outcomes the router reports: it gives a task to agents, says which recipients it did not
 * give it to, or dead-letters what it cannot route.
 */
const ROUTER_OUTCOMES: readonly HandoffOutcomeKind[] = ['ROUTED', 'NOT_DELIVERED', 'DEAD_LETTERED'];

/** What the holder check knows of a task before the event: who holds it, and who was routed which message. */
export interface TaskHolders {
  /** The agent (or agents, comma-separated) holding the task; null when none does. */
  owner: string | null;
  /** The targets (comma-separated) of the router's ROUTED events not yet reported by, by the routed message's id. */
  routes: ReadonlyMap<string, string>;
  /** The agents that dead-lettered a message of the task routed to them; undefined while none has. */
  deadLetterers?: ReadonlySet<string>;
}

/** Whether the comma-separated `agents` name `agent`; one agent, the common case, allocates nothing. */
function names(agents: string | null | undefined, agent: string): boolean {
  return agents === agent || (agents?.includes(',') === true && agents.split(',').includes(agent));
}

/**
 * Why an outcome event is not from an agent entitled to report on its task, or undefined when it
 * is. The router reports ROUTED, NOT_DELIVERED and DEAD_LETTERED for any task (it is the one that gives tasks
 * out); any other agent reports on a message the router routed to it and it has not reported on
 * yet (TaskBook keeps the routes), on a task it holds (one it took over by a negotiated
 * handoff, whose handoff never passed the router, included), or on a task of which it dead-lettered
 * a routed message (an operator may replay the dead letter straight into its inbox, under a new
 * message id). A signature proves
 * which agent wrote the event (BATON_SIGNATURES=required); this proves that agent had the task, so
 * an agent cannot finish, hand off or dead-letter a task it was never given.
 */
export function holderRefusal(event: Immutable<HandoffOutcome>, task: TaskHolders | undefined): BatonError | undefined {
  const agent = event.agent_id;
  if (agent === ROUTER_AGENT_ID) {
    if (ROUTER_OUTCOMES.includes(event.outcome)) return undefined;
    return new BatonError(
      'OUTCOME_NOT_HOLDER',
      `the router reports ${ROUTER_OUTCOMES.join(', ')}, not ${event.outcome}`,
      {
        path: '/outcome',
        details: { task_id: event.task_id, event_id: event.event_id },
      },
    );
  }
  if (
    task !== undefined &&
    (names(task.owner, agent) ||
      names(task.routes.get(event.message_id), agent) ||
      task.deadLetterers?.has(agent) === true)
  ) {
    return undefined;
  }
  return new BatonError(
    'OUTCOME_NOT_HOLDER',
    `${agent} reports ${event.outcome} for task ${event.task_id}, which it does not hold, of message ${event.message_id}, which was not routed to it`,
    { path: '/agent_id', details: { task_id: event.task_id, event_id: event.event_id } },
  );
}
