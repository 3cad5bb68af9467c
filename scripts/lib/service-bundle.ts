import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Where the bundle of `entry` (a TypeScript file, relative to the repository root) is written:
 * dist/<entry, .ts replaced by .mjs>. dist/ is not committed; every launcher builds it first.
 */
export function bundlePath(entry: string): string {
  return join(ROOT, 'dist', entry.replace(/\.ts$/, '.mjs'));
}

const IN_ORDER = 'baton-in-order';

/** Whether the package file `file` is CommonJS: .cjs, or .js in a package not of type module. */
function isCommonJs(file: string): boolean {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type !== 'module';
  }
  return true;
}

/**
 * Node's builtins and third-party packages stay outside the bundle, loaded from node_modules; every
 * @baton library goes in. A package is loaded from the file its importer resolves it to (a library
 * may have a version of its own: libs/protocol has its own ajv). A CommonJS package is required
 * where it is imported, in module order, as when the sources run one file at a time, rather than
 * imported above the bundle's code:
 * - kafkajs must load after @baton/kafka's fixes have put a replacement into Node's module cache
 *   (libs/kafka/src/kafkajs-fixes/read-committed.ts);
 * - a named import of a CommonJS package (`import { Ajv } from 'ajv'`) then works as it does in
 *   the sources, through the bundle's interop, where Node's own would refuse it.
 */
const externals: Plugin = {
  name: 'baton-externals',
  setup(bundle) {
    bundle.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@baton/') || args.pluginData === IN_ORDER) return undefined;
      if (args.path.startsWith('node:') || isBuiltin(args.path)) return { path: args.path, external: true };
      const resolved = await bundle.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: IN_ORDER,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (isCommonJs(resolved.path)) return { path: resolved.path, namespace: IN_ORDER };
      return { path: resolved.path, external: true };
    });
    // The shim's own require: the resolved file itself, loaded by Node at run time.
    bundle.onResolve({ filter: /.*/, namespace: IN_ORDER }, (args) => ({ path: args.path, external: true }));
    bundle.onLoad({ filter: /.*/, namespace: IN_ORDER }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * Each source file keeps its own `import.meta.url`: files find their schemas, routing table, UI
 * and infra directory relative to where they are in the repository, not where the bundle is.
 */
const ownUrls: Plugin = {
  name: 'baton-own-urls',
  setup(bundle) {
    bundle.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return {
        contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: 'ts',
      };
    });
  },
};

/** The require() of the CommonJS packages the bundle requires in order (by their resolved paths). */
const BANNER =
  "import { createRequire as __batonCreateRequire } from 'node:module';\nconst require = __batonCreateRequire(import.meta.url);";

const built = new Map<string, Promise<void>>();

/**
 * Bundles each entry into one ES module (bundlePath): its own files and every @baton library,
 * compiled from TypeScript, so a service runs on plain Node, without a TypeScript loader (tsx costs
 * a service about 35 MiB of memory, a loader thread and an esbuild process of its own). Entries not
 * bundled yet by this process are bundled together, in one esbuild run. Each file is written whole
 * (renamed into place), so processes that bundle the same entry at once never start a half-written one.
 */
export function bundleServices(entries: readonly string[]): Promise<void> {
  const fresh = [...new Set(entries)].filter((entry) => !built.has(entry));
  if (fresh.length > 0) {
    const done = bundle(fresh);
    for (const entry of fresh) built.set(entry, done);
    done.catch(() => fresh.forEach((entry) => built.delete(entry)));
  }
  return Promise.all(entries.map((entry) => built.get(entry))).then(() => undefined);
}

async function bundle(entries: readonly string[]): Promise<void> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [...entries],
    outdir: join(ROOT, 'dist'),
    outbase: ROOT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Node's own conditions only (import/require, node, default), without esbuild's `module`: every
    // package stays external and Node loads it, so it must be the file Node would pick. The `module`
    // build of @opentelemetry/api is for bundlers (extensionless imports) and fails under Node.
    conditions: [],
    banner: { js: BANNER },
    plugins: [externals, ownUrls],
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'silent',
    write: false,
  });
  await Promise.all(
    result.outputFiles.map(async (file) => {
      await mkdir(dirname(file.path), { recursive: true });
      const partial = `${file.path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(partial, file.contents);
      await rename(partial, file.path);
    }),
  );
}
