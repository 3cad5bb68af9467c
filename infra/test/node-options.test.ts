import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bundlePath, bundleServices } from '../../scripts/lib/service-bundle.js';
import { SERVICE_NODE_OPTIONS_FILE, SERVICE_V8_FLAGS, serviceNodeArgs } from '../../scripts/lib/service-node-args.js';
import { REPO_ROOT, readRepoFile, repoPath } from './repo.js';

/** The options services/node.env gives NODE_OPTIONS, by name (`--max-semi-space-size` → '2'). */
function nodeOptions(): Map<string, string> {
  const line = readRepoFile('services', 'node.env')
    .split('\n')
    .find((entry) => entry.startsWith('NODE_OPTIONS='));
  const value = /^NODE_OPTIONS="([^"]*)"$/.exec(line ?? '')?.[1];
  if (value === undefined) throw new Error('services/node.env has no NODE_OPTIONS="..." line');
  return new Map(value.split(/\s+/).map((option) => option.split('=') as [string, string]));
}

describe('services/node.env: the Node options of every service process', () => {
  it('bounds the young generation and keeps the old generation growing conservatively', () => {
    const options = nodeOptions();
    // Each MiB of semi-space is up to 3 MiB more RSS: 4 keeps every service under 150 MiB in the bench.
    expect(Number(options.get('--max-semi-space-size'))).toBeLessThanOrEqual(4);
    // V8 lets the old generation outgrow its live size by up to 4x above a 2 GiB limit (issue 10).
    expect(Number(options.get('--max-old-space-size'))).toBeLessThanOrEqual(1024);
  });

  it('is read by this Node, and V8 applies it', () => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS; // the environment's NODE_OPTIONS would take precedence over the file
    const limitMiB = Number(
      execFileSync(
        process.execPath,
        [
          `--env-file=${repoPath('services', 'node.env')}`,
          '-p',
          "require('node:v8').getHeapStatistics().heap_size_limit / 1048576",
        ],
        { cwd: REPO_ROOT, env, encoding: 'utf8' },
      ),
    );
    const options = nodeOptions();
    // The heap limit is the old generation's plus the young generation's (three semi-spaces).
    expect(limitMiB).toBe(
      Number(options.get('--max-old-space-size')) + 3 * Number(options.get('--max-semi-space-size')),
    );
  });

  it('is what npm start, the bench and the tests pass, as the Dockerfile does', async () => {
    const entry = 'services/router/src/main.ts';
    await bundleServices([entry]);
    expect(SERVICE_NODE_OPTIONS_FILE).toBe(repoPath('services', 'node.env'));
    expect(serviceNodeArgs(entry)).toEqual([
      `--env-file=${SERVICE_NODE_OPTIONS_FILE}`,
      ...SERVICE_V8_FLAGS,
      bundlePath(entry),
    ]);
    expect(readRepoFile('Dockerfile')).toContain(
      `exec node --env-file=services/node.env ${SERVICE_V8_FLAGS.join(' ')} \\"dist/services/`,
    );
  }, 60_000);

  it('passes V8 flags on the command line, where this Node takes them and NODE_OPTIONS refuses them', () => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const run = (args: string[], extraEnv: Record<string, string> = {}): { status: number | null; stderr: string } => {
      const result = spawnSync(process.execPath, args, { env: { ...env, ...extraEnv }, encoding: 'utf8' });
      return { status: result.status, stderr: result.stderr };
    };
    // An unknown flag stops node ("bad option"): these start it.
    expect(run([...SERVICE_V8_FLAGS, '-e', '0'])).toEqual({ status: 0, stderr: '' });
    for (const flag of SERVICE_V8_FLAGS) {
      expect(run(['-e', '0'], { NODE_OPTIONS: flag }).stderr).toContain(`${flag} is not allowed in NODE_OPTIONS`);
    }
  });
});
