import type { TaskAnswer, TimelineEvent } from '@baton/gateway-api';
import type { Command } from '../context.js';
import { formatTable, type Column } from '../format.js';
import { segment } from '../gateway-client.js';

export const TIMELINE_COLUMNS: readonly Column<TimelineEvent>[] = [
  { header: 'TIME', value: (event) => event.time },
  { header: 'AGENT', value: (event) => event.agent_id },
  { header: 'OUTCOME', value: (event) => event.outcome },
  { header: 'TYPE', value: (event) => event.handoff_type },
  { header: 'FROM', value: (event) => event.sender },
  { header: 'TO', value: (event) => event.receiver },
  { header: 'TARGET', value: (event) => event.target },
  { header: 'MESSAGE_ID', value: (event) => event.message_id },
  {
    header: 'DETAIL',
    value: (event) => [event.error_code, event.detail].filter((part) => part !== undefined && part !== '').join(': '),
  },
];

/** `baton task TASK_ID`: the task's timeline as a table. */
export const task: Command = async (context) => {
  const [taskId = ''] = context.operands;
  const answer = await context.gateway().get<TaskAnswer>(`/v1/tasks/${segment(taskId)}`);
  if (context.json) return context.printJson(answer);
  context.print([
    `task ${answer.task_id}: ${answer.events.length} events`,
    ...formatTable(TIMELINE_COLUMNS, answer.events),
  ]);
};
