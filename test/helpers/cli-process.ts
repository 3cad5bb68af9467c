import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const execFileAsync = promisify(execFile);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Added to the test process's environment; an undefined value removes the variable. */
  env?: Record<string, string | undefined>;
  /** Standard input; none (closed at once) when absent. */
  input?: string;
  /** @default 60_000 */
  timeoutMs?: number;
}

/** Runs `baton ARGS` (libs/cli/bin/baton.js) as its own process from the repository root. */
export async function runBaton(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const running = execFileAsync(process.execPath, ['libs/cli/bin/baton.js', ...args], {
    cwd: ROOT,
    env,
    timeout: options.timeoutMs ?? 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  running.child.stdin?.end(options.input ?? '');
  try {
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
