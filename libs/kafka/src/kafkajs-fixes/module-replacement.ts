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

export type PrototypePatch =
  { status: 'applied' | 'already-applied'; version: string } | NonNullable<ReturnType<typeof notPinned>>;

type Method = (this: unknown, ...args: never[]) => unknown;

export interface MethodReplacement {
  /** `Class.method`, for the error when the method is missing. */
  name: string;
  prototype: object;
  method: string;
  /** The replacement, made from the method it replaces. */
  replace(original: Method): Method;
}

/**
 * Replaces methods of kafkajs's prototypes, once per process: kafkajs's modules are shared, so a
 * later call finds `marker` set on the first prototype and changes nothing. A method missing from
 * the installed kafkajs is an error naming it (the fix does not fit it). Not applied to another
 * kafkajs version than the pinned one.
 */
export function replacePrototypeMethods(marker: symbol, replacements: readonly MethodReplacement[]): PrototypePatch {
  const skipped = notPinned();
  if (skipped) return skipped;
  const version = PATCHED_KAFKAJS_VERSION;
  const marked = replacements[0]?.prototype as Record<symbol, unknown> | undefined;
  if (marked?.[marker] === true) return { status: 'already-applied', version };
  for (const { name, prototype, method } of replacements) {
    if (typeof (prototype as Record<string, unknown>)[method] !== 'function') {
      throw new Error(`kafkajs ${version} has no ${name} to patch`);
    }
  }
  for (const { prototype, method, replace } of replacements) {
    const methods = prototype as Record<string, Method>;
    methods[method] = replace(methods[method] as Method);
  }
  if (marked) marked[marker] = true;
  return { status: 'applied', version };
}
