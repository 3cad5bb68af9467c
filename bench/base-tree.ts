import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Another commit of Baton checked out beside this tree, able to run its own services. */
export interface BaseTree {
  /** The commit, abbreviated, as `git` names it. */
  commit: string;
  dir: string;
  /** Spawns `entry` of the base as its own launchers would (its services/node.env, its flags, its bundle). */
  spawn(entry: string, env: NodeJS.ProcessEnv): ChildProcess;
  remove(): void;
}

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

/**
 * Links `dir`'s node_modules to this tree's packages, except that each @baton package is the
 * base's own: the base then runs its own code on the same third-party versions.
 */
function linkNodeModules(dir: string): void {
  for (const workspace of ['.', ...['libs', 'services'].flatMap((parent) => subfolders(join(ROOT, parent), parent))]) {
    const source = join(ROOT, workspace, 'node_modules');
    if (!existsSync(source) || !existsSync(join(dir, workspace))) continue;
    const target = join(dir, workspace, 'node_modules');
    mkdirSync(target, { recursive: true });
    for (const entry of readdirSync(source)) {
      if (entry === '@baton') continue;
      symlinkSync(join(source, entry), join(target, entry));
    }
  }
  const batonSource = join(ROOT, 'node_modules', '@baton');
  const batonTarget = join(dir, 'node_modules', '@baton');
  mkdirSync(batonTarget, { recursive: true });
  for (const name of readdirSync(batonSource)) {
    // npm links a workspace package relatively (../../libs/kafka): the same path inside the base.
    const workspace = relative(ROOT, resolve(batonSource, readlinkSync(join(batonSource, name))));
    symlinkSync(join(dir, workspace), join(batonTarget, name));
  }
}

function subfolders(dir: string, prefix: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(prefix, entry.name));
}

/**
 * Checks `ref` out in a temporary worktree, links its packages and bundles `entries` with its own
 * bundler, ready to spawn. `remove()` deletes the worktree.
 */
export async function checkOutBase(ref: string, entries: readonly string[]): Promise<BaseTree> {
  const commit = git(['rev-parse', '--short=12', `${ref}^{commit}`]);
  const dir = join(tmpdir(), `baton-compare-${commit}-${process.pid}`);
  git(['worktree', 'add', '--detach', '--force', dir, commit]);
  const remove = (): void => {
    try {
      git(['worktree', 'remove', '--force', dir]);
    } catch {
      rmSync(dir, { recursive: true, force: true });
      git(['worktree', 'prune']);
    }
  };
  try {
    linkNodeModules(dir);
    const bundler = pathToFileURL(join(dir, 'scripts', 'lib', 'service-bundle.ts')).href;
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { bundleServices } = await import(${JSON.stringify(bundler)}); await bundleServices(${JSON.stringify(entries)});`,
      ],
      { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const { serviceNodeArgs } = (await import(
      pathToFileURL(join(dir, 'scripts', 'lib', 'service-node-args.ts')).href
    )) as {
      serviceNodeArgs(entry: string): string[];
    };
    return {
      commit,
      dir,
      spawn: (entry, env) =>
        spawn(process.execPath, serviceNodeArgs(entry), { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] }),
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}
