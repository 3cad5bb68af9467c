import { ageText, type TaskListAnswer, type TaskListParameters, type TaskListRow } from '@baton/gateway-api';
import { instantOption, integerOption, stringOption } from '../args.js';
import type { Command } from '../context.js';
import { formatTable, type Column } from '../format.js';

/** The columns of `baton tasks`, ages as of `now`. */
export function taskColumns(now: number): Column<TaskListRow>[] {
  return [
    { header: 'TASK', value: (task) => task.task_id },
    {
      header: 'STATUS',
      value: (task) => (task.stuck === undefined ? task.status : `${task.status} (stuck: ${task.stuck})`),
    },
    { header: 'OWNER', value: (task) => task.owner },
    { header: 'HANDOFF TYPES', value: (task) => task.handoff_types.join(',') },
    { header: 'AGE', value: (task) => ageText(task.created_at, now), align: 'right' },
    { header: 'IDLE', value: (task) => ageText(task.updated_at, now), align: 'right' },
    {
      header: 'LAST OUTCOME',
      value: ({ last_outcome: last }) =>
        last === undefined
          ? undefined
          : `${last.outcome} by ${last.agent_id}${last.error_code === undefined ? '' : ` (${last.error_code})`}`,
    },
  ];
}

/** `baton tasks [filters]`: GET /v1/tasks as a table, newest first, with the cursor of the next page. */
export const tasks: Command = async (context) => {
  const { options } = context;
  const query: TaskListParameters = {
    status: stringOption(options, 'status')?.toUpperCase(),
    agent: stringOption(options, 'agent'),
    handoff_type: stringOption(options, 'handoff-type'),
    issue_category: stringOption(options, 'issue-category'),
    error_code: stringOption(options, 'error-code'),
    from: instantOption(options, 'from'),
    to: instantOption(options, 'to'),
    q: stringOption(options, 'search'),
    correlation_id: stringOption(options, 'correlation-id'),
    stuck_after: integerOption(options, 'stuck-after', 1),
    limit: integerOption(options, 'limit', 1, 500),
    cursor: stringOption(options, 'cursor'),
  };
  const answer = await context.gateway().get<TaskListAnswer>('/v1/tasks', { ...query });
  if (context.json) return context.printJson(answer);
  if (answer.tasks.length === 0) return context.print(`no task matches (total ${answer.total})`);
  context.print([
    ...formatTable(taskColumns(Date.now()), answer.tasks),
    `${answer.tasks.length} of ${answer.total}` +
      (answer.next_cursor === undefined ? '' : `; next page: --cursor ${answer.next_cursor}`),
  ]);
};
