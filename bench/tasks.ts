/**
 * `npm run bench:tasks [N]`: the task list's search alone, over N tasks (default 100,000), in this
 * process and without a broker: the same lines as `npm run bench` prints, then its JSON line.
 */
import { TASK_SEARCH_TASKS, benchTaskSearch, taskSearchLines } from './task-search-bench.js';
import { progress } from './bench-run-settings.js';

const wanted = Number(process.argv[2] ?? TASK_SEARCH_TASKS);
if (!Number.isInteger(wanted) || wanted < 1) {
  progress(`usage: npm run bench:tasks [TASKS], TASKS a positive integer, not "${process.argv[2]}"`);
  process.exit(2);
}
const result = benchTaskSearch(wanted, progress);
process.stdout.write(`${taskSearchLines(result).join('\n')}\n`);
process.stdout.write(`${JSON.stringify({ event: 'bench.tasks', ...result })}\n`);
