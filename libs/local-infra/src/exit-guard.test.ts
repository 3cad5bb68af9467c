import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';

const EXIT_GUARD = fileURLToPath(new URL('./exit-guard.ts', import.meta.url));
const LOCAL_INFRA = fileURLToPath(new URL('./index.ts', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-exit-guard-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Ended {
  output: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs `body` (TypeScript, after a cleanup that writes "cleanup" is registered) in a Node process
 * of its own, sends it SIGTERM once it says "ready", and returns how it ended: within 10 s, or
 * killed and reported as a process that ignored the signal.
 */
async function terminated(body: string): Promise<Ended> {
  const script = join(dir, 'child.mts');
  await writeFile(
    script,
    [
      "import { writeSync } from 'node:fs';",
      `import { onProcessExit } from ${JSON.stringify(EXIT_GUARD)};`,
      "onProcessExit(() => writeSync(1, 'cleanup\\n'));",
      body,
      "writeSync(1, 'ready\\n');",
      'setInterval(() => undefined, 60_000);',
    ].join('\n'),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    if (!output.includes('ready') && (output + text).includes('ready')) child.kill('SIGTERM');
    output += text;
  });
  return new Promise<Ended>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ output, code, signal });
    });
  });
}

test('alone, the guard runs its cleanups on SIGTERM and the process dies of it', async () => {
  expect(await terminated('')).toStrictEqual({ output: 'ready\ncleanup\n', code: null, signal: 'SIGTERM' });
}, 20_000);

test('with @baton/local-infra loaded (testcontainers brings signal-exit 3), SIGTERM still stops the process', async () => {
  const ended = await terminated(`await import(${JSON.stringify(LOCAL_INFRA)});`);
  expect(ended).toStrictEqual({ output: 'ready\ncleanup\n', code: null, signal: 'SIGTERM' });
}, 20_000);

test("another handler's stop comes first: the cleanups run when it exits", async () => {
  const ended = await terminated(
    "process.on('SIGTERM', () => { writeSync(1, 'stopping\\n'); setTimeout(() => process.exit(3), 200); });",
  );
  expect(ended).toStrictEqual({ output: 'ready\nstopping\ncleanup\n', code: 3, signal: null });
}, 20_000);
