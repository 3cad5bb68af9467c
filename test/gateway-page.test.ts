import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GATEWAY_TOKENS as TOKENS,
  PROBE_AGENT as PROBE,
  startGatewayRig,
  uniqueName,
  waitFor,
  type GatewayRig,
} from './helpers/index.js';
import { systemToolsFor } from './system-tools/suite.js';

/**
 * The gateway's web page (services/gateway/ui) in a real Chromium against a real gateway: the
 * dead letters, one opened and replayed, the replayed task's timeline, and a viewer's refused replay.
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
/** Set to a file path to get a screenshot of the opened dead letter (never kept in the repository). */
const SCREENSHOT = process.env.BATON_UI_SCREENSHOT;

let setup: GatewayRig;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** Uncaught exceptions of the page's script. */
const pageErrors: Error[] = [];
const tasks = { replayed: uniqueName('page-task'), refused: uniqueName('page-task') };

const dlqTopic = () => `${setup.rig.topics.agentInbox(PROBE)}.dlq`;

async function openPage(): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error));
  await page.goto(`${setup.gateway.address}/ui/`);
  return page;
}

async function useToken(page: Page, token: string): Promise<void> {
  await page.getByLabel('API token').fill(token);
  await page.getByTestId('token-save').click();
  await expect.poll(() => page.getByTestId('token-status').textContent()).toContain('Token set');
}

/** Picks the probe agent's DLQ, filters it to `taskId` and opens the one row left. */
async function openDeadLetterOf(page: Page, taskId: string): Promise<string> {
  const topicRow = page.locator(`[data-testid="topic-row"][data-topic="${dlqTopic()}"]`);
  await topicRow.getByTestId('topic-link').click();
  await page.getByTestId('messages-table').waitFor();
  await page.getByTestId('filter-form').getByLabel('Task id').fill(taskId);
  await page.getByTestId('filter-apply').click();
  const rows = page.getByTestId('message-row');
  await expect
    .poll(() => rows.evaluateAll((found) => found.map((row) => row.getAttribute('data-task-id'))))
    .toEqual([taskId]);
  await expect.poll(() => page.getByTestId('messages-total').textContent()).toContain('of 1 matching');
  const id = await rows.getAttribute('data-id');
  // A click anywhere on the row opens it (here: its handoff type cell).
  await rows.locator('td').nth(3).click();
  await page.getByTestId('dlq-detail').waitFor();
  await expect.poll(() => page.getByTestId('detail-id').textContent()).toBe(id);
  return id as string;
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
    async () => {
      const listed = await setup.api('GET', `/v1/dlq/${dlqTopic()}/messages`, { token: TOKENS.viewer });
      return listed.body?.total === 2;
    },
    { description: 'both handoffs to be dead-lettered', timeoutMs: 30_000 },
  );
  rmSync(outage);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  const codes = await setup?.stop();
  expect(codes?.gateway).toBe(0);
  expect(pageErrors).toEqual([]);
});

describe.skipIf(tools.skip)('gateway page', () => {
  it('shows a dead letter, replays it with a reason, then shows the task completed in its timeline', async () => {
    const page = await openPage();
    await expect.poll(() => page.getByTestId('token-status').textContent()).toContain('No token');
    await useToken(page, TOKENS.operator);

    const topicRow = page.locator(`[data-testid="topic-row"][data-topic="${dlqTopic()}"]`);
    await expect.poll(() => topicRow.getByTestId('topic-count').textContent()).toBe('2');
    await topicRow.getByTestId('topic-link').click();
    await expect.poll(() => page.getByTestId('message-row').count()).toBe(2);

    // Paging by next_cursor, one row a page.
    const rowTasks = () =>
      page.getByTestId('message-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task-id')));
    const pageSize = page.getByLabel('Rows per page');
    await pageSize.fill('1');
    await pageSize.press('Enter');
    await expect.poll(() => page.getByTestId('message-row').count()).toBe(1);
    const [newest] = await rowTasks();
    expect(await page.getByTestId('messages-total').textContent()).toContain('1–1 of 2');
    await page.getByTestId('page-next').click();
    const older = newest === tasks.replayed ? tasks.refused : tasks.replayed;
    await expect.poll(rowTasks).toEqual([older]);
    expect(await page.getByTestId('messages-total').textContent()).toContain('2–2 of 2');
    expect(await page.getByTestId('page-next').isDisabled()).toBe(true);
    await page.getByTestId('page-prev').click();
    await expect.poll(rowTasks).toEqual([newest]);
    await pageSize.fill('50');
    await pageSize.press('Enter');
    await expect.poll(() => page.getByTestId('message-row').count()).toBe(2);

    // Header and time filters; Clear shows everything again.
    const filters = page.getByTestId('filter-form');
    await filters.getByLabel('Headers').fill(`ce_subject=${tasks.refused}`);
    await filters.getByTestId('filter-apply').click();
    await expect.poll(rowTasks).toEqual([tasks.refused]);
    await filters.getByLabel(/^To\b/).fill('2000-01-01T00:00:00');
    await filters.getByTestId('filter-apply').click();
    await expect.poll(rowTasks).toEqual([]);
    expect(await page.getByTestId('messages-empty').isVisible()).toBe(true);
    await filters.getByTestId('filter-clear').click();
    await expect.poll(() => page.getByTestId('message-row').count()).toBe(2);

    const id = await openDeadLetterOf(page, tasks.replayed);
    expect(id).toMatch(/^\d+-\d+$/);
    const detail = page.getByTestId('dlq-detail');
    const field = (list: string, name: string) =>
      detail.getByTestId(list).locator(`[data-field="${name}"]`).textContent();
    const header = (name: string) => detail.locator(`[data-testid="header-row"][data-name="${name}"] td`).textContent();

    expect(await field('detail-error', 'code')).toBe('RETRIES_EXHAUSTED');
    expect(await field('detail-error', 'stage')).toBeTruthy();
    expect(await field('detail-error', 'attempts')).toBe('1');
    expect(await field('detail-error', 'source_topic')).toBe(setup.rig.topics.agentInbox(PROBE));
    expect(await field('detail-error', 'source_partition')).toMatch(/^\d+$/);
    expect(await field('detail-error', 'source_offset')).toMatch(/^\d+$/);
    expect(await field('detail-summary', 'task_id')).toBe(tasks.replayed);
    expect(await header('baton.dlq.error.code')).toBe('RETRIES_EXHAUSTED');
    expect(await header('ce_subject')).toBe(tasks.replayed);
    const body = JSON.parse((await detail.getByTestId('detail-body').textContent()) ?? '');
    expect(body).toMatchObject({
      metadata: { task_id: tasks.replayed, sender_id: 'ops_console', recipient_id: PROBE },
      payload: { handoff_type: 'STATUS_UPDATE' },
    });
    const messageId = body.metadata.message_id as string;
    expect(await detail.getByTestId('detail-replays-empty').isVisible()).toBe(true);
    if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // The reason is required: without one nothing is sent.
    await detail.getByTestId('replay-submit').click();
    expect(await detail.getByTestId('replay-result').isHidden()).toBe(true);

    await detail.getByLabel('Reason').fill('downstream back after the outage');
    await detail.getByTestId('replay-submit').click();
    const result = detail.getByTestId('replay-result');
    await expect.poll(() => result.getAttribute('data-state')).toBe('ok');
    expect(await result.locator('[data-field="target_topic"]').textContent()).toBe(setup.rig.topics.agentInbox(PROBE));
    expect(await result.locator('[data-field="message_id"]').textContent()).toBe(messageId);
    expect(await page.getByTestId('error-banner').isHidden()).toBe(true);
    // The audit entry is read back from Kafka; the page shows it once it is there.
    const replayRows = detail.getByTestId('replay-row');
    await expect.poll(() => replayRows.count(), { timeout: 15_000 }).toBe(1);
    expect(await replayRows.textContent()).toContain('downstream back after the outage');

    await waitFor(() => setup.observed(tasks.replayed).length === 1, {
      description: 'the probe agent to process the replayed handoff',
      timeoutMs: 30_000,
    });

    // The task id of the dead letter opens the task's timeline.
    await detail.getByTestId('task-link').click();
    await page.getByTestId('view-task').waitFor();
    expect(await page.getByTestId('task-form').getByLabel('Task id').inputValue()).toBe(tasks.replayed);
    const timelineRows = page.getByTestId('timeline-row');
    const steps = () =>
      timelineRows.evaluateAll((rows) =>
        rows.map((row) => `${row.getAttribute('data-agent')} ${row.getAttribute('data-outcome')}`),
      );
    await expect
      .poll(
        async () => {
          await page.getByTestId('task-refresh').click();
          return steps();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toContain(`${PROBE} COMPLETED`);
    await page.getByTestId('nav-dlq').click();
    expect(await steps()).toEqual([`router ROUTED`, `${PROBE} DEAD_LETTERED`, `${PROBE} COMPLETED`]);
    const completed = timelineRows.last();
    expect(await completed.locator('[data-col="route"]').textContent()).toBe(`ops_console → ${PROBE}`);
    expect(await completed.locator('[data-col="handoff_type"]').textContent()).toBe('STATUS_UPDATE');
    expect(await timelineRows.nth(1).locator('[data-col="detail"]').textContent()).toContain('RETRIES_EXHAUSTED');
  }, 120_000);

  it("shows the API's FORBIDDEN error when a viewer tries to replay, and nothing is replayed", async () => {
    const page = await openPage();
    await useToken(page, TOKENS.viewer);
    await openDeadLetterOf(page, tasks.refused);
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

    // The viewer may read: the task's timeline, entered by hand, ends dead-lettered.
    await page.getByTestId('nav-tasks').click();
    await page.getByTestId('task-form').getByLabel('Task id').fill(tasks.refused);
    await page.getByTestId('task-show').click();
    // The route changes on the hashchange that follows the click: the banner goes with it.
    await expect.poll(() => banner.isHidden()).toBe(true);
    await expect.poll(() => page.getByTestId('timeline-row').last().getAttribute('data-outcome')).toBe('DEAD_LETTERED');
    expect(setup.observed(tasks.refused)).toEqual([]);
  }, 60_000);
});
