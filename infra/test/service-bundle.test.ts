import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundlePath, bundleServices } from '../../scripts/lib/service-bundle.js';
import { REPO_ROOT, repoPath } from './repo.js';

const PROBE = 'infra/test/fixtures/bundle-probe.ts';

describe('a service bundle (scripts/lib/service-bundle.ts)', () => {
  beforeAll(() => bundleServices([PROBE]), 60_000);

  it('runs on plain Node with the kafkajs fixes in place, each library on its own dependencies', () => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS; // no TypeScript loader: the bundle is JavaScript
    const report = JSON.parse(
      execFileSync(process.execPath, [bundlePath(PROBE)], { cwd: REPO_ROOT, env, encoding: 'utf8' }),
    );
    expect(report).toEqual({
      readCommitted: 'applied',
      kafkajsFiltersWithTheFix: true,
      idleRequestQueuePatched: true,
      handoffIssues: [],
      url: pathToFileURL(repoPath(PROBE)).href,
    });
  });

  it('leaves third-party packages in node_modules and requires kafkajs after the fixes', () => {
    const code = readFileSync(bundlePath(PROBE), 'utf8');
    expect(code).not.toContain('node_modules/kafkajs/src/consumer');
    const fixed = code.indexOf('patchReadCommitted();');
    const loaded = code.search(/__toESM\(require_kafkajs\(\)/);
    expect(fixed).toBeGreaterThan(0);
    expect(loaded).toBeGreaterThan(fixed);
  });
});
