import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  floodRouterDeadLetters,
  GATEWAY_TOKENS as TOKENS,
  PROBE_AGENT as PROBE,
  startGatewayRig,
  uniqueName,
  waitFor,
  type GatewayRig,
} from './helpers/index.js';
import { systemToolsFor } from './system-tools/suite.js';

/**
 * The page's globals that the functions run in it (page.evaluate, addInitScript) touch. This file
 * is checked as Node code, without the DOM's types; the casts go at compile time, so the function
 * the browser runs names the page's own globals.
 */
interface PageGlobals {
  sessionStorage: { setItem(key: string, value: string): void };
  document: { body: unknown; querySelectorAll(selector: string): Iterable<PageNode> };
  getComputedStyle(node: unknown): { backgroundColor: string };
  location: { hash: string };
  notReloaded?: boolean;
}

/** What the layout check reads of an element in the page. */
interface PageNode {
  dataset: Record<string, string | undefined>;
  parentElement: PageNode | null;
  textContent: string | null;
  getBoundingClientRect(): { right: number; width: number };
  querySelectorAll(selector: string): Iterable<PageNode>;
}

/**
 * The gateway's console page (services/gateway/ui) in a real Chromium against a real gateway: the
 * overview, a dead letter found from it in two clicks and replayed, a task followed live, and a
 * viewer's refused replay.
 */

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Debian's chromium on PATH (installed by the run when it can be), or the one CHROMIUM_PATH names. */
const tools = systemToolsFor('browser test', ['chromium']);
/** Set to 1 to save a screenshot of every view in docs/ (console-overview, -dead-letters, -tasks, -task and -agents .png; the README shows some). */
const SCREENSHOTS = process.env.BATON_UI_SCREENSHOTS === '1';
const DOCS = fileURLToPath(new URL('../docs/', import.meta.url));

let setup: GatewayRig;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** Uncaught exceptions of the page's script. */
const pageErrors: Error[] = [];
/** Requests of the page to anywhere but the gateway. */
const elsewhere: string[] = [];
const tasks = { replayed: uniqueName('page-task'), refused: uniqueName('page-task') };

const dlqTopic = () => `${setup.rig.topics.agentInbox(PROBE)}.dlq`;

async function openPage(token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error));
  page.on('request', (request) => {
    if (!request.url().startsWith(setup.gateway.address) && !request.url().startsWith('data:'))
      elsewhere.push(request.url());
  });
  await page.goto(`${setup.gateway.address}/ui/`);
  await expect.poll(() => page.getByTestId('token-status').textContent()).toContain('No token');
  // Nothing loaded yet, so nothing is claimed: neither that all is well nor an item needing attention.
  expect(await page.getByTestId('attention-none').isHidden()).toBe(true);
  expect(await page.getByTestId('attention-item').count()).toBe(0);
  await page.getByLabel('API token').fill(token);
  await page.getByTestId('token-save').click();
  await expect.poll(() => page.getByTestId('token-status').textContent()).toContain('Token set');
  return page;
}

/** The rows of `testId` as `[key attribute, text of their count]`. */
function countRows(page: Page, testId: string, key: string) {
  return page
    .getByTestId(testId)
    .evaluateAll(
      (rows, name) =>
        rows.map((row) => [row.getAttribute(name), row.querySelector('[data-testid="dlq-count"]')?.textContent]),
      key,
    );
}

/** From the overview, two clicks: the probe agent's DLQ, then the row of `taskId`. */
async function openDeadLetterFromOverview(page: Page, taskId: string): Promise<void> {
  await page.locator(`[data-testid="dlq-topic-row"][data-topic="${dlqTopic()}"]`).getByTestId('dlq-link').click();
  const row = page.locator(`[data-testid="message-row"][data-task-id="${taskId}"]`);
  // A click anywhere on the row opens it (here: its handoff type cell).
  await row.locator('td').nth(4).click();
  await page.getByTestId('dlq-detail').waitFor();
  await expect.poll(() => page.getByTestId('detail-id').textContent()).toBe(await row.getAttribute('data-id'));
}

/** The flow diagram's marks as `arrow <from>→<to> <label> <tone>` or `note <lane> <label> <tone>`. */
function flowMarks(page: Page): Promise<string[]> {
  return page.getByTestId('flow-mark').evaluateAll((marks) =>
    marks.map((mark) => {
      const where =
        mark.getAttribute('data-kind') === 'arrow'
          ? `${mark.getAttribute('data-from')}→${mark.getAttribute('data-to')}`
          : mark.getAttribute('data-lane');
      const tone = /tone-(\w+)/.exec(mark.getAttribute('class') ?? '')?.[1];
      return `${mark.getAttribute('data-kind')} ${where} ${mark.getAttribute('data-label')} ${tone}`;
    }),
  );
}

/** The timeline's rows as `<agent> <outcome>`. */
function steps(page: Page): Promise<string[]> {
  return page
    .getByTestId('timeline-row')
    .evaluateAll((rows) => rows.map((row) => `${row.getAttribute('data-agent')} ${row.getAttribute('data-outcome')}`));
}

beforeAll(async () => {
  setup = await startGatewayRig('gateway-page');
  tools.assertAvailable();
  browser = await chromium.launch({ executablePath: tools.path('chromium'), args: CHROMIUM_ARGS });

  // Two tasks dead-lettered during an outage of the probe agent's downstream, which then ends.
  const outage = join(setup.workDir, 'outage-page');
  writeFileSync(outage, 'down');
  for (const [seq, taskId] of [tasks.replayed, tasks.refused].entries()) {
    const answer = await setup.api('POST', '/v1/handoffs', {
      token: TOKENS.publisher,
      body: setup.probeHandoff(taskId, { seq, fail_while_exists: outage }, 0),
    });
    expect(answer.status).toBe(202);
  }
  await waitFor(
    async () => (await setup.api('GET', '/v1/dead-letters/stats', { token: TOKENS.viewer })).body?.total === 2,
    { description: 'both handoffs to be dead-lettered', timeoutMs: 30_000 },
  );
  rmSync(outage);
});

/**
 * The overview's load time, three times, in fresh tabs with the token already set: from navigation
 * start until its dead letters by topic are shown. Returns each tab's page on the side for checks.
 */
async function overviewLoadTimes(): Promise<number[]> {
  const loads: number[] = [];
  for (let load = 0; load < 3; load += 1) {
    const context = await browser.newContext();
    contexts.push(context);
    await context.addInitScript(
      (token) => (globalThis as unknown as PageGlobals).sessionStorage.setItem('baton.gateway.token', token),
      TOKENS.viewer,
    );
    const again = await context.newPage();
    again.on('pageerror', (error) => pageErrors.push(error));
    await again.goto(`${setup.gateway.address}/ui/`);
    await again.getByTestId('dlq-topic-row').first().waitFor();
    loads.push(Math.round(await again.evaluate(() => performance.now())));
  }
  return loads;
}

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  const codes = await setup?.stop();
  expect(codes?.gateway).toBe(0);
  expect(pageErrors).toEqual([]);
  expect(elsewhere).toEqual([]);
});

describe.skipIf(tools.skip)('gateway console page', () => {
  it('opens on the overview: the agents and the non-empty DLQs, counted as the API counts them; the agents view', async () => {
    // The page's script is bundled from its TypeScript at the gateway's start; the sources are not served.
    const script = await fetch(`${setup.gateway.address}/ui/app.js`);
    expect([script.status, script.headers.get('content-security-policy')]).toEqual([
      200,
      expect.stringContaining("default-src 'self'"),
    ]);
    expect((await fetch(`${setup.gateway.address}/ui/src/main.ts`)).status).toBe(404);

    const page = await openPage(TOKENS.viewer);
    expect(new URL(page.url()).hash).toBe('#/overview');
    const overview = (await setup.api('GET', '/v1/overview', { token: TOKENS.viewer })).body;

    const agentRows = () =>
      page
        .getByTestId('agent-row')
        .evaluateAll((rows) =>
          rows.map((row) => [
            row.getAttribute('data-agent'),
            row.querySelector('[data-col="up"]')?.textContent,
            row.querySelector('[data-col="instances"]')?.textContent,
          ]),
        );
    await expect
      .poll(agentRows)
      .toEqual(
        overview.agents.map((agent: any) => [agent.agent_id, agent.up ? 'up' : 'down', String(agent.instances.length)]),
      );
    expect(overview.agents.map((agent: any) => agent.agent_id).sort()).toEqual([PROBE, 'router']);

    // Only the DLQ holding dead letters, of the many the rig's topics have.
    expect(overview.dead_letters.by_topic).toEqual([
      { topic: dlqTopic(), source_topic: setup.rig.topics.agentInbox(PROBE), count: 2 },
    ]);
    await expect.poll(() => countRows(page, 'dlq-topic-row', 'data-topic')).toEqual([[dlqTopic(), '2']]);
    await expect.poll(() => countRows(page, 'dlq-code-row', 'data-code')).toEqual([['RETRIES_EXHAUSTED', '2']]);
    expect(await page.getByTestId('dlq-total').textContent()).toBe('2');
    expect(await page.getByTestId('dlq-empty-topics').textContent()).toContain(
      `${overview.dead_letters.empty_topics} empty`,
    );
    // The DLQ holding dead letters needs attention, shown in red.
    const item = page.locator(`[data-testid="attention-item"][data-subject="${dlqTopic()}"]`);
    expect(await item.getAttribute('data-kind')).toBe('dead_letters');
    expect(
      await item.evaluate((node) => (globalThis as unknown as PageGlobals).getComputedStyle(node).backgroundColor),
    ).not.toBe('rgba(0, 0, 0, 0)');
    // One bar per minute of the window.
    expect(await page.getByTestId('outcome-minute').count()).toBe(overview.outcomes.window_minutes);
    if (SCREENSHOTS) await page.screenshot({ path: join(DOCS, 'console-overview.png'), fullPage: true });

    // The agents' view: a card per agent, with the lag the API gives it.
    await page.getByTestId('nav-agents').click();
    const agents = (await setup.api('GET', '/v1/agents', { token: TOKENS.viewer })).body.agents;
    const cards = () =>
      page
        .getByTestId('agent-card')
        .evaluateAll((found) =>
          found.map((card) => [card.getAttribute('data-agent'), card.querySelector('[data-field="lag"]')?.textContent]),
        );
    await expect.poll(cards).toEqual(agents.map((agent: any) => [agent.agent_id, String(agent.lag ?? '—')]));
    const probeCard = page.locator(`[data-testid="agent-card"][data-agent="${PROBE}"]`);
    expect(await probeCard.getByTestId('instance-row').count()).toBe(1);
    // What the probe reported over the last minutes: the dead letters of the test before, at least.
    const probe = agents.find((agent: { agent_id: string }) => agent.agent_id === PROBE);
    expect(probe.recent_outcomes.DEAD_LETTERED).toBeGreaterThan(0);
    expect(await probeCard.getByTestId('agent-recent-outcomes').textContent()).toContain(
      `DEAD_LETTERED ${probe.recent_outcomes.DEAD_LETTERED}`,
    );
    expect(await probeCard.locator('[data-field="control-lag"]').textContent()).toBe(String(probe.control_lag ?? '—'));

    console.log(`overview shown ${(await overviewLoadTimes()).join(', ')} ms after navigation start`);
  });

  it('finds a dead letter from the overview in two clicks, replays it with a reason, and shows the task completed', async () => {
    const page = await openPage(TOKENS.operator);
    await openDeadLetterFromOverview(page, tasks.replayed);
    expect(new URL(page.url()).hash).toContain(`topic=${encodeURIComponent(dlqTopic())}`);
    expect(await page.getByTestId('message-row').count()).toBe(2);
    expect(await page.getByTestId('messages-total').textContent()).toContain('1–2 of 2 matching');

    const detail = page.getByTestId('dlq-detail');
    const field = (list: string, name: string) =>
      detail.getByTestId(list).locator(`[data-field="${name}"]`).textContent();
    const header = (name: string) => detail.locator(`[data-testid="header-row"][data-name="${name}"] td`).textContent();
    expect(await field('detail-error', 'code')).toBe('RETRIES_EXHAUSTED');
    expect(await field('detail-error', 'attempts')).toBe('1');
    expect(await field('detail-error', 'source_topic')).toBe(setup.rig.topics.agentInbox(PROBE));
    expect(await field('detail-summary', 'task_id')).toBe(tasks.replayed);
    expect(await header('ce_subject')).toBe(tasks.replayed);
    const body = JSON.parse((await detail.getByTestId('detail-body').textContent()) ?? '');
    expect(body).toMatchObject({
      metadata: { task_id: tasks.replayed, sender_id: 'ops_console', recipient_id: PROBE },
      payload: { handoff_type: 'STATUS_UPDATE' },
    });
    expect(await detail.getByTestId('detail-replays-empty').isVisible()).toBe(true);

    // Bulk replay of the list plans first: the dry run counts both, and replays nothing.
    const bulk = page.getByTestId('bulk-replay');
    await bulk.getByLabel('Reason').fill('a dry run only');
    await bulk.getByTestId('bulk-dry-run').click();
    await expect.poll(() => bulk.locator('[data-field="count"]').textContent()).toBe('2');
    expect(await bulk.getAttribute('data-state')).toBe('planned');
    expect(await bulk.getByTestId('bulk-start').isEnabled()).toBe(true);

    // The reason is required: without one nothing is sent.
    await detail.getByTestId('replay-submit').click();
    expect(await detail.getByTestId('replay-result').isHidden()).toBe(true);
    await detail.getByLabel('Reason').fill('downstream back after the outage');
    await detail.getByTestId('replay-submit').click();
    const result = detail.getByTestId('replay-result');
    await expect.poll(() => result.getAttribute('data-state')).toBe('ok');
    expect(await result.locator('[data-field="message_id"]').textContent()).toBe(body.metadata.message_id);
    expect(await page.getByTestId('error-banner').isHidden()).toBe(true);
    const replayRows = detail.getByTestId('replay-row');
    await expect.poll(() => replayRows.count(), { timeout: 15_000 }).toBe(1);
    expect(await replayRows.textContent()).toContain('downstream back after the outage');

    // The task id opens the task, followed live: the replay's completion arrives by itself.
    await detail.getByTestId('task-link').click();
    await page.getByTestId('view-task').waitFor();
    expect(await page.getByTestId('task-heading').textContent()).toBe(`Task ${tasks.replayed}`);
    await expect
      .poll(() => steps(page), { timeout: 30_000 })
      .toEqual(['router ROUTED', `${PROBE} DEAD_LETTERED`, `${PROBE} COMPLETED`]);
    expect(setup.observed(tasks.replayed)).toEqual([0]);
    const timelineRows = page.getByTestId('timeline-row');
    expect(await timelineRows.last().locator('[data-col="route"]').textContent()).toBe(`ops_console → ${PROBE}`);
    expect(await timelineRows.nth(1).locator('[data-col="detail"]').textContent()).toContain('RETRIES_EXHAUSTED');
    await expect
      .poll(() => page.getByTestId('task-summary').locator('[data-field="status"]').textContent())
      .toBe('FINISH');
    // The same story as a sequence diagram: the handoff to the probe, its dead letter in red, then done.
    await expect
      .poll(() => flowMarks(page))
      .toEqual([
        `arrow ops_console→${PROBE} STATUS_UPDATE info`,
        `note ${PROBE} DEAD_LETTERED RETRIES_EXHAUSTED bad`,
        `note ${PROBE} COMPLETED good`,
      ]);
  }, 120_000);

  it('shows the new steps of a task opened while it runs, without a reload; finds it by its correlation id', async () => {
    const taskId = uniqueName('page-live');
    const publish = async (seq: number, script: Record<string, unknown>): Promise<string> => {
      const answer = await setup.api('POST', '/v1/handoffs', {
        token: TOKENS.publisher,
        body: setup.probeHandoff(taskId, { seq, ...script }),
      });
      expect(answer.status).toBe(202);
      return answer.body.message_id as string;
    };
    // The first message's id is its flow's correlation id.
    const flow = await publish(1, { slow_ms: 2_000 });
    await waitFor(
      async () => (await setup.api('GET', `/v1/tasks/${taskId}`, { token: TOKENS.viewer })).status === 200,
      { description: 'the task to be routed' },
    );

    const page = await openPage(TOKENS.viewer);
    await page.getByTestId('nav-tasks').click();
    await page.getByTestId('task-form').getByLabel('Task or correlation id').fill(taskId);
    await page.getByTestId('task-show').click();
    // What tells a reload: a fresh page has no such property.
    await page.evaluate(() => Object.assign(globalThis, { notReloaded: true }));
    await expect.poll(() => page.getByTestId('live-status').getAttribute('data-state')).toBe('open');
    await expect.poll(() => steps(page)).toContain('router ROUTED');

    await expect.poll(() => steps(page), { timeout: 30_000 }).toEqual(['router ROUTED', `${PROBE} COMPLETED`]);
    await publish(2, { reply: 'Second step done.' });
    await expect
      .poll(() => steps(page), { timeout: 30_000 })
      .toEqual(['router ROUTED', `${PROBE} COMPLETED`, 'router ROUTED', `${PROBE} COMPLETED`]);
    await expect
      .poll(() => page.getByTestId('reply').allTextContents())
      .toEqual([expect.stringContaining('Second step done.')]);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).notReloaded)).toBe(true);
    await expect.poll(() => page.getByTestId('timeline-status').textContent()).toContain('4 step(s)');
    await expect
      .poll(() => page.getByTestId('task-summary').locator('[data-field="status"]').textContent())
      .toBe('FINISH');
    if (SCREENSHOTS) await page.screenshot({ path: join(DOCS, 'console-task.png'), fullPage: true });

    await page.getByTestId('nav-overview').click();
    await page.getByTestId('nav-tasks').click();
    await page.getByTestId('task-form').getByLabel('Task or correlation id').fill(flow);
    await page.getByTestId('task-show').click();
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash))
      .toBe(`#/tasks/${encodeURIComponent(taskId)}`);
    await expect.poll(() => steps(page), { timeout: 30_000 }).toHaveLength(4);
  }, 90_000);

  it("shows the API's FORBIDDEN error when a viewer tries to replay, and nothing is replayed", async () => {
    const page = await openPage(TOKENS.viewer);
    await openDeadLetterFromOverview(page, tasks.refused);
    const detail = page.getByTestId('dlq-detail');
    await detail.getByLabel('Reason').fill('a viewer trying');
    await detail.getByTestId('replay-submit').click();

    const banner = page.getByTestId('error-banner');
    await banner.waitFor();
    expect(await banner.getByTestId('error-code').textContent()).toBe('FORBIDDEN');
    expect(await banner.getByTestId('error-status').textContent()).toBe('HTTP 403');
    expect(await banner.getByTestId('error-message').textContent()).toContain('operator');
    await expect.poll(() => detail.getByTestId('replay-result').getAttribute('data-state')).toBe('failed');
    expect(await detail.getByTestId('replay-result').textContent()).toContain('FORBIDDEN');

    const letter = (
      await setup.api('GET', `/v1/dlq/${dlqTopic()}/messages/${await detail.getByTestId('detail-id').textContent()}`, {
        token: TOKENS.viewer,
      })
    ).body;
    expect([letter.task_id, letter.replay_count, letter.replays]).toEqual([tasks.refused, 0, []]);
    expect(setup.observed(tasks.refused)).toEqual([]);

    // Forgetting the token leaves nothing read with it on screen.
    await page.getByTestId('token-forget').click();
    await expect.poll(() => page.getByTestId('token-status').textContent()).toContain('No token');
    expect(await page.getByTestId('message-row').count()).toBe(0);
    expect(await page.getByTestId('dlq-detail').isHidden()).toBe(true);
  }, 60_000);

  it('draws a task as a sequence diagram: a recipient the router did not deliver to is a dashed red arrow', async () => {
    const taskId = uniqueName('page-flow');
    const handoff = setup.probeHandoff(taskId, { seq: 1 }) as { metadata: Record<string, unknown> };
    handoff.metadata.recipient_id = [PROBE, 'nobody'];
    expect((await setup.api('POST', '/v1/handoffs', { token: TOKENS.publisher, body: handoff })).status).toBe(202);
    await waitFor(
      async () => (await setup.api('GET', `/v1/tasks/${taskId}`, { token: TOKENS.viewer })).body?.status === 'FINISH',
      { description: 'the task to finish' },
    );
    const page = await openPage(TOKENS.viewer);
    await page.goto(`${setup.gateway.address}/ui/#/tasks/${encodeURIComponent(taskId)}`);
    await expect
      .poll(() => flowMarks(page))
      .toEqual([
        `arrow ops_console→${PROBE} STATUS_UPDATE info`,
        'arrow ops_console→nobody STATUS_UPDATE: not delivered bad',
        `note ${PROBE} COMPLETED good`,
      ]);
    expect(
      await page.getByTestId('flow-lane').evaluateAll((lanes) => lanes.map((lane) => lane.getAttribute('data-lane'))),
    ).toEqual(['ops_console', PROBE, 'nobody']);
    expect(await page.locator('[data-testid="flow-mark"].dashed').count()).toBe(1);
    // The step says why, in the table under the diagram.
    expect(await steps(page)).toEqual(['router ROUTED', 'router NOT_DELIVERED', `${PROBE} COMPLETED`]);
    const notDelivered = page.getByTestId('timeline-row').nth(1);
    expect(await notDelivered.locator('[data-col="detail"]').textContent()).toBe(
      'not delivered to nobody: no such agent in the routing table; rule default sent the handoff to probe_agent',
    );
  }, 60_000);

  it('lists the tasks newest first, filters them as the API does, opens one and comes back to the list as it was', async () => {
    const page = await openPage(TOKENS.viewer);
    await page.getByTestId('nav-tasks').click();
    const all = (await setup.api('GET', '/v1/tasks?limit=500', { token: TOKENS.viewer })).body;
    const rows = () =>
      page
        .getByTestId('task-row')
        .evaluateAll((found) =>
          found.map((row) => [row.getAttribute('data-task-id'), row.getAttribute('data-status')]),
        );
    // The first page: the API's first 50, in its order.
    await expect
      .poll(rows)
      .toEqual(all.tasks.slice(0, 50).map((task: any) => [task.task_id, task.stuck ? 'STUCK' : task.status]));
    expect(await page.getByTestId('tasks-total').textContent()).toContain(`of ${all.total} matching`);
    if (SCREENSHOTS) await page.screenshot({ path: join(DOCS, 'console-tasks.png'), fullPage: true });

    // The dead-lettered task that was not replayed: BREAK, last dead-lettered by the probe.
    await page.getByTestId('task-filter-status').selectOption('BREAK');
    await page.getByTestId('task-filter-q').fill(tasks.refused.slice(0, -2));
    await page.getByTestId('task-filter-apply').click();
    await expect.poll(rows).toEqual([[tasks.refused, 'BREAK']]);
    const row = page.locator(`[data-testid="task-row"][data-task-id="${tasks.refused}"]`);
    expect(await row.locator('[data-col="last-outcome"]').textContent()).toContain(
      `DEAD_LETTERED ${PROBE} RETRIES_EXHAUSTED`,
    );
    const hash = () => page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash);
    expect(await hash()).toBe(`#/tasks?status=BREAK&q=${encodeURIComponent(tasks.refused.slice(0, -2))}`);

    // A row opens the task's story; its back link returns to the list with the filters it had.
    await row.locator('td').nth(2).click();
    await expect.poll(() => page.getByTestId('task-heading').textContent()).toBe(`Task ${tasks.refused}`);
    await expect.poll(() => steps(page)).toEqual(['router ROUTED', `${PROBE} DEAD_LETTERED`]);
    await page.getByTestId('task-back').click();
    await expect.poll(rows).toEqual([[tasks.refused, 'BREAK']]);
    expect(await page.getByTestId('task-filter-status').inputValue()).toBe('BREAK');

    // Filters that exclude each other: nothing, and the list says so.
    await page.getByTestId('task-filter-status').selectOption('FINISH');
    await page.getByTestId('task-filter-apply').click();
    await page.getByTestId('tasks-empty').waitFor();
    expect(await page.getByTestId('tasks-total').textContent()).toBe('0 matching');
  }, 60_000);

  it('lays every view out at 1,280 and 1,920 px: no table wider than its card, no cell squeezed; a dark theme follows the system', async () => {
    const page = await openPage(TOKENS.viewer);
    const views = [
      ['overview', '#/overview', 'dlq-topic-row'],
      ['dead-letters', '#/dead-letters', 'message-row'],
      ['tasks', '#/tasks', 'task-row'],
      ['task', `#/tasks/${encodeURIComponent(tasks.refused)}`, 'timeline-row'],
      ['agents', '#/agents', 'agent-card'],
    ] as const;
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, hash, rowTestId] of views) {
        await page.evaluate((target) => ((globalThis as unknown as PageGlobals).location.hash = target), hash);
        await page.getByTestId(rowTestId).first().waitFor();
        const problems = await page.evaluate(() => {
          const found: string[] = [];
          const doc = (globalThis as unknown as PageGlobals).document;
          for (const table of doc.querySelectorAll('table')) {
            const box = table.getBoundingClientRect();
            const room = (table.parentElement as PageNode).getBoundingClientRect();
            if (box.width === 0) continue;
            if (box.right > room.right + 1)
              found.push(`${table.dataset.testid}: ${Math.round(box.right - room.right)} px cut`);
            for (const cell of table.querySelectorAll('td')) {
              const text = (cell.textContent ?? '').trim();
              // A cell with words in it must hold at least a word a line: about six characters.
              if (text.length > 6 && cell.getBoundingClientRect().width < 48)
                found.push(
                  `${table.dataset.testid}: "${text.slice(0, 20)}" squeezed to ${Math.round(cell.getBoundingClientRect().width)} px`,
                );
            }
          }
          return found;
        });
        expect(problems, `${name} at ${width} px`).toEqual([]);
        if (SCREENSHOTS && width === 1280 && (name === 'dead-letters' || name === 'agents'))
          await page.screenshot({ path: join(DOCS, `console-${name}.png`), fullPage: true });
      }
    }
    const background = () =>
      page.evaluate(
        () =>
          (globalThis as unknown as PageGlobals).getComputedStyle((globalThis as unknown as PageGlobals).document.body)
            .backgroundColor,
      );
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe('rgb(244, 245, 247)');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe('rgb(20, 23, 28)');
  }, 90_000);

  // Last: the flood would push the other tests' dead letters down the lists.
  it('loads the overview with 10,000 dead letters present, counting them as the API does', async () => {
    const routerDlq = await floodRouterDeadLetters(setup, 10_000);
    const stats = (await setup.api('GET', '/v1/dead-letters/stats', { token: TOKENS.viewer })).body;

    const loads = await overviewLoadTimes();
    console.log(`with ${stats.total} dead letters the overview is shown ${loads.join(', ')} ms after navigation start`);
    const page = await openPage(TOKENS.viewer);
    await expect
      .poll(() =>
        page
          .locator(`[data-testid="dlq-topic-row"][data-topic="${routerDlq}"] [data-testid="dlq-count"]`)
          .textContent(),
      )
      .toBe('10001');
  }, 120_000);
});
