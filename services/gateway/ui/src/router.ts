/**
 * The console's routes, in the URL hash so any view can be bookmarked or shared:
 * #/overview (the landing page), #/dead-letters?<filters>, #/dead-letters/<topic>/<id>?<filters>,
 * #/tasks?<filters> (the task list), #/tasks/<task_id>, #/agents.
 */
export type Route =
  | { view: 'overview' }
  | { view: 'dead-letters'; filters: URLSearchParams; open: { topic: string; id: string } | undefined }
  | { view: 'tasks'; taskId: string | undefined; filters: URLSearchParams }
  | { view: 'agents' };

export type ViewName = Route['view'];

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const parts = path
    .split('/')
    .filter((part) => part !== '')
    .map(decoded);
  const [view, first, second] = parts;
  if (view === 'dead-letters') {
    const open = first !== undefined && second !== undefined ? { topic: first, id: second } : undefined;
    return { view, filters: new URLSearchParams(query), open };
  }
  if (view === 'tasks') return { view, taskId: first, filters: new URLSearchParams(query) };
  if (view === 'agents') return { view };
  return { view: 'overview' };
}

/** The hash of the dead-letter list with `filters`, or of one record in it. */
export function deadLettersHash(filters: URLSearchParams, open?: { topic: string; id: string }): string {
  const path = open ? `/${encodeURIComponent(open.topic)}/${encodeURIComponent(open.id)}` : '';
  const query = filters.toString();
  return `#/dead-letters${path}${query ? `?${query}` : ''}`;
}

/** The hash of the task list with `filters`. */
export function tasksHash(filters: URLSearchParams): string {
  const query = filters.toString();
  return `#/tasks${query ? `?${query}` : ''}`;
}

export function taskHash(taskId: string): string {
  return `#/tasks/${encodeURIComponent(taskId)}`;
}

/** A path segment decoded; a malformed one (a stray %) as none. */
function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
