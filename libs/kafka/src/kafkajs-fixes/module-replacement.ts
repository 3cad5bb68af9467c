import { createRequire } from 'node:module';
import { PATCHED_KAFKAJS_VERSION, notPinned } from './idle-request-queue.js';

export type ModuleReplacement =
  { status: 'applied'; version: string } | { status: 'skipped'; version: string; reason: string };

const requireFromHere = createRequire(import.meta.url);

/** What kafkajs's modules get for `module` now. */
export function kafkajsModuleExports(module: string): unknown {
  return requireFromHere(module);
}

/**
 * Puts `replacements` (kafkajs module → what it exports instead) into Node's module cache, for the
 * kafkajs modules that load later to take them. Throws when one of `takers`, the modules that take
 * them when they load, already has: kafkajs came first (`fix` names the fix in the message). Not
 * applied to another kafkajs version than the pinned one.
 */
export function replaceBeforeKafkajsLoads(
  fix: string,
  takers: readonly string[],
  replacements: (original: (module: string) => unknown) => Record<string, unknown>,
): ModuleReplacement {
  const skipped = notPinned();
  if (skipped) return skipped;
  if (takers.some((module) => requireFromHere.cache[requireFromHere.resolve(module)] !== undefined)) {
    throw new Error(`kafkajs was loaded before @baton/kafka could fix its ${fix}: import @baton/kafka first`);
  }
  for (const [module, replacement] of Object.entries(replacements(kafkajsModuleExports))) {
    const path = requireFromHere.resolve(module);
    requireFromHere(path);
    const cached = requireFromHere.cache[path];
    if (cached === undefined) throw new Error(`${module} is not in the module cache`);
    cached.exports = replacement;
  }
  return { status: 'applied', version: PATCHED_KAFKAJS_VERSION };
}
