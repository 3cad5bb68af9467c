import { describe, expect, it } from 'vitest';
import { readRepoFile } from './repo.js';

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined and comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

/** The instructions of each stage, by stage name (or index). */
function stages(all: Instruction[]): Map<string, Instruction[]> {
  const result = new Map<string, Instruction[]>();
  let current: Instruction[] | undefined;
  for (const instruction of all) {
    if (instruction.keyword === 'FROM') {
      current = [];
      const name = /\sAS\s+(\S+)$/i.exec(instruction.args)?.[1] ?? String(result.size);
      result.set(name, current);
    }
    current?.push(instruction);
  }
  return result;
}

describe('Dockerfile', () => {
  const all = instructions(readRepoFile('Dockerfile'));
  const byStage = stages(all);
  const runtime = [...byStage.values()].at(-1)!;
  const args = (keyword: string) => runtime.filter((entry) => entry.keyword === keyword).map((entry) => entry.args);

  it('builds in stages, from the manifests to a runtime stage', () => {
    expect([...byStage.keys()]).toEqual(['manifests', 'deps', 'runtime']);
    expect(runtime[0]!.args).toMatch(/^node:\$\{NODE_VERSION\}-alpine AS runtime$/);
  });

  it('installs production dependencies of the services only', () => {
    const install = byStage
      .get('deps')!
      .filter((entry) => entry.keyword === 'RUN')
      .map((entry) => entry.args)
      .join(' ');
    expect(install).toContain('npm install');
    expect(install).toContain('--omit=dev');
    expect(install).toContain('--include-workspace-root');
    expect(install).toContain('services/*/');
  });

  it('runs the bundle of the service named by SERVICE, as the unprivileged node user', () => {
    expect(args('USER')).toEqual(['node']);
    expect(args('ARG')).toContain('SERVICE=router');
    expect(args('ENV')).toContain('SERVICE=${SERVICE}');
    // The services' Node options (services/node.env), the same file every other launcher passes.
    expect(args('CMD')).toEqual([
      '["sh", "-c", "exec node --env-file=services/node.env --single-threaded-gc --no-memory-reducer --no-flush-bytecode \\"dist/services/${SERVICE}/src/main.mjs\\""]',
    ]);
    expect(args('EXPOSE')).toEqual(['8080']);
    const env = args('ENV').join(' ');
    expect(env).toContain('HTTP_PORT=8080');
    expect(env).toContain('HTTP_HOST=0.0.0.0');
  });

  it('bundles every service at build time, before it drops root', () => {
    const build = runtime.findIndex(
      (entry) => entry.keyword === 'RUN' && entry.args === 'node --import tsx scripts/bundle-services.ts',
    );
    expect(build).toBeGreaterThan(
      runtime.findIndex((entry) => entry.keyword === 'COPY' && entry.args === 'scripts/ ./scripts/'),
    );
    expect(build).toBeLessThan(runtime.findIndex((entry) => entry.keyword === 'USER'));
  });

  it('copies what the services need at run time', () => {
    const copied = args('COPY');
    for (const source of ['schemas/', 'libs/', 'services/', 'scripts/', 'tsconfig.json tsconfig.base.json']) {
      expect(copied.some((entry) => entry.startsWith(source))).toBe(true);
    }
    expect(copied).toContain('--from=deps /app ./');
  });

  it('sets SERVICE after everything else, so the services share every other layer', () => {
    const index = runtime.findIndex((entry) => entry.keyword === 'ARG' && entry.args.startsWith('SERVICE'));
    expect(runtime.slice(index).map((entry) => entry.keyword)).toEqual(['ARG', 'ENV', 'CMD']);
  });
});

describe('tsx and esbuild in the image', () => {
  it('are dependencies of the root package, so a production install has what bundles the services', () => {
    const pkg = JSON.parse(readRepoFile('package.json')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    for (const name of ['tsx', 'esbuild']) {
      expect(pkg.dependencies?.[name]).toBeDefined();
      expect(pkg.devDependencies?.[name]).toBeUndefined();
    }
  });
});

describe('.dockerignore', () => {
  const lines = readRepoFile('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('keeps dependencies, git history, local data and Maven output out of the build context', () => {
    // dist: bundles built here name this machine's paths; the image builds its own.
    for (const pattern of ['**/node_modules', '.git', '.baton', '**/dist', 'infra', '**/*.test.ts'])
      expect(lines).toContain(pattern);
  });

  it('keeps everything the image copies', () => {
    for (const kept of ['schemas', 'libs', 'services', 'package.json', 'package-lock.json', 'tsconfig.json']) {
      expect(lines).not.toContain(kept);
      expect(lines).not.toContain(`${kept}/`);
    }
    // Of scripts/, only what bundles the services, and what it imports.
    for (const kept of [
      'scripts/bundle-services.ts',
      'scripts/lib/service-bundle.ts',
      'scripts/lib/service-entries.ts',
    ])
      expect(lines).toContain(`!${kept}`);
  });
});
