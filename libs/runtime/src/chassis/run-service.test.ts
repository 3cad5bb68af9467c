import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./run-service.fixture.ts', import.meta.url));

/** Runs the fixture, sends SIGTERM once it has started, and gathers its log lines and exit code. */
async function stopStuckService(
  env: Record<string, string>,
): Promise<{ code: number | null; logs: Record<string, unknown>[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logs: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const entry = JSON.parse(line) as Record<string, unknown>;
    logs.push(entry);
    if (entry.event === 'service.started') child.kill('SIGTERM');
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, logs };
}

describe('runService', () => {
  it('gives up a close that outlasts BATON_SHUTDOWN_TIMEOUT_MS: logs the component it waited for, exits 1', async () => {
    const { code, logs } = await stopStuckService({ BATON_SHUTDOWN_TIMEOUT_MS: '500' });

    expect(code).toBe(1);
    expect(logs.map((entry) => String(entry.event)).filter((event) => event.startsWith('service.'))).toEqual([
      'service.started',
      'service.signal',
      'service.stopping',
      'service.close_timeout',
    ]);
    expect(logs.at(-1)).toMatchObject({ level: 'error', component: 'stuck', timeout_ms: 500 });
  }, 30_000);

  it('refuses a BATON_SHUTDOWN_TIMEOUT_MS that is not a positive integer as the start’s failure: CONFIG_INVALID, exit 1', async () => {
    const { code, logs } = await stopStuckService({ BATON_SHUTDOWN_TIMEOUT_MS: '0' });

    expect(code).toBe(1);
    expect(logs.at(-1)).toMatchObject({
      level: 'fatal',
      event: 'service.start_failed',
      err: { code: 'CONFIG_INVALID', path: '/env/BATON_SHUTDOWN_TIMEOUT_MS' },
    });
  }, 30_000);
});
