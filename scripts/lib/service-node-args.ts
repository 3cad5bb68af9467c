import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundlePath } from './service-bundle.js';

/** The Node options every service process runs with, and why: see the file's comments. */
export const SERVICE_NODE_OPTIONS_FILE = fileURLToPath(new URL('../../services/node.env', import.meta.url));

/**
 * V8 flags every service process runs with, which NODE_OPTIONS refuses and so services/node.env
 * cannot hold; why, in that file's comments. The Dockerfile's CMD passes the same.
 */
export const SERVICE_V8_FLAGS = ['--single-threaded-gc', '--no-memory-reducer', '--no-flush-bytecode'] as const;

/**
 * The arguments of `node` that run `entry` as Baton runs a service everywhere (the Dockerfile's CMD
 * does the same): the options of services/node.env and SERVICE_V8_FLAGS, then the entry's bundle
 * (bundleServices), in the same process, so the pid is the service itself.
 */
export function serviceNodeArgs(entry: string): string[] {
  const bundle = bundlePath(entry);
  if (!existsSync(bundle)) throw new Error(`${entry} has no bundle at ${bundle}: bundleServices([entry]) first`);
  return [`--env-file=${SERVICE_NODE_OPTIONS_FILE}`, ...SERVICE_V8_FLAGS, bundle];
}
