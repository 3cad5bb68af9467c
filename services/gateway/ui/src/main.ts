/**
 * The gateway's operator console: the overview, the dead letters across all DLQs, the tasks and
 * one followed live, and the agents. Bundled by the gateway at start (services/gateway/src/http/console-page.ts).
 */
import { currentToken, setToken } from './api.js';
import { byTestId, show } from './dom.js';
import { clearError } from './feedback.js';
import { parseRoute, type Route, type ViewName } from './router.js';
import type { View } from './types.js';
import { agentsView } from './views/agents.js';
import { deadLettersView } from './views/dead-letters.js';
import { overviewView } from './views/overview.js';
import { tasksView } from './views/tasks.js';

const views: { [N in ViewName]: View<Extract<Route, { view: N }>> } = {
  overview: overviewView(),
  'dead-letters': deadLettersView(),
  tasks: tasksView(),
  agents: agentsView(),
};
const main = byTestId('views');
for (const view of Object.values(views)) {
  show(view.root, false);
  main.append(view.root);
}

let current: ViewName | undefined;

function applyRoute(): void {
  const route = parseRoute(window.location.hash);
  if (current !== route.view && current !== undefined) views[current].leave();
  current = route.view;
  for (const [name, view] of Object.entries(views)) show(view.root, name === route.view);
  for (const link of document.querySelectorAll<HTMLElement>('[data-view-link]')) {
    if (link.dataset.viewLink === route.view) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  clearError();
  if (route.view === 'overview') document.title = 'Overview · Baton';
  // Without a token every call would be refused: the views wait for one.
  if (!currentToken()) return;
  enter(route);
}

function enter<R extends Route>(route: R): void {
  (views[route.view] as View<R>).enter(route);
}

window.addEventListener('hashchange', applyRoute);

const tokenForm = byTestId<HTMLFormElement>('token-form');
const tokenInput = byTestId<HTMLInputElement>('token-input');
const tokenStatus = byTestId('token-status');

function showTokenStatus(): void {
  tokenStatus.textContent = currentToken() ? 'Token set for this tab.' : 'No token: enter one to begin.';
  tokenStatus.dataset.state = currentToken() ? 'set' : 'missing';
}

tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = tokenInput.value.trim();
  if (!token) return tokenInput.focus();
  setToken(token);
  tokenInput.value = '';
  showTokenStatus();
  // Everything on screen is loaded again with the new credential.
  if (current !== undefined) views[current].leave();
  current = undefined;
  applyRoute();
});

byTestId('token-forget').addEventListener('click', () => {
  setToken('');
  // Nothing read with the credential stays on screen, and no stream stays open.
  window.location.reload();
});

showTokenStatus();
if (!window.location.hash) window.history.replaceState(null, '', '#/overview');
applyRoute();
if (!currentToken()) tokenInput.focus();
