import {
  buildHandoff,
  type BuildOptions,
  type HandoffDataByType,
  type HandoffInstructions,
  type HandoffMessage,
  type HandoffType,
  type Immutable,
  type PreviousAction,
  type Priority,
  type UserInteraction,
} from '@baton/protocol';

/** What an agent did with a task, as it appears in context.previous_actions. */
export interface AgentAction {
  action_type: string;
  details: string;
}

export interface NextHandoff<T extends HandoffType = HandoffType> {
  to: string | string[];
  handoff_type: T;
  data: HandoffDataByType[T];
  action: AgentAction;
  workflow_state?: string;
  instructions?: HandoffInstructions;
  priority?: Priority;
  /** ISO 8601: the new message's metadata.expiration_time, past which it must not be processed. */
  expiration_time?: string;
  /**
   * Another task than the incoming one: a subtask the agent splits off (give it
   * `parent_task_ids: [incoming task_id]`), or a task the agent reports to, such as a subtask's
   * parent. Absent: the incoming message's task.
   */
  task_id?: string;
  /**
   * The new message's metadata.parent_task_ids. Absent: within the same task the incoming
   * message's are carried forward; another task gets none.
   */
  parent_task_ids?: string[];
  /**
   * The conversation the new message carries as context.user_interaction_history, in place of the
   * incoming one: a model agent's, with its own turns, tool calls and results added. Absent: the
   * incoming history, unchanged.
   */
  user_interaction_history?: UserInteraction[];
}

/**
 * The handoff an agent sends on from `incoming`: same task, correlated with the incoming flow,
 * the whole context carried over, and the agent's own action appended to previous_actions so the
 * receiver sees the full history. The incoming expiration_time is not carried: it bounds a message,
 * not a task; `next.expiration_time` bounds the new message.
 * parent_task_ids are carried within the task; `next.task_id` addresses another task (a subtask,
 * or the parent a subtask reports to), which keeps the flow's correlation and the context.
 */
export function deriveHandoff<T extends HandoffType>(
  incoming: Immutable<HandoffMessage>,
  agentId: string,
  next: NextHandoff<T>,
  options: BuildOptions = {},
): Immutable<HandoffMessage> {
  const now = options.now ?? (() => new Date());
  const action: PreviousAction = { ...next.action, timestamp: now().toISOString(), agent_id: agentId };
  const context = structuredClone(incoming.context) as HandoffMessage['context'];
  const taskId = next.task_id ?? incoming.metadata.task_id;
  const parents =
    next.parent_task_ids ?? (taskId === incoming.metadata.task_id ? incoming.metadata.parent_task_ids : undefined);
  return buildHandoff(
    {
      metadata: {
        sender_id: agentId,
        recipient_id: next.to,
        task_id: taskId,
        correlation_id: incoming.metadata.correlation_id ?? incoming.metadata.message_id,
        priority: next.priority ?? incoming.metadata.priority,
        ...(next.expiration_time === undefined ? {} : { expiration_time: next.expiration_time }),
        ...(parents === undefined ? {} : { parent_task_ids: [...parents] }),
      },
      context: {
        ...context,
        workflow_state: next.workflow_state ?? context.workflow_state,
        previous_actions: [...context.previous_actions, action],
        ...(next.user_interaction_history === undefined
          ? {}
          : { user_interaction_history: structuredClone(next.user_interaction_history) }),
      },
      payload: { handoff_type: next.handoff_type, data: next.data },
      instructions: next.instructions ?? {},
    },
    { ...options, now },
  );
}
