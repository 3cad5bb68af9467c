import type { TaskAnswer } from '@baton/gateway-api';
import type { Command } from '../context.js';
import { segment } from '../gateway-client.js';
import { formatTask } from './task-format.js';

/** `baton task TASK_ID`: the task's timeline as a table, then its negotiated handoffs; `--json` the answer as is. */
export const task: Command = async (context) => {
  const [taskId = ''] = context.operands;
  const answer = await context.gateway().get<TaskAnswer>(`/v1/tasks/${segment(taskId)}`);
  if (context.json) return context.printJson(answer);
  context.print(formatTask(answer));
};
