import { fileURLToPath } from 'node:url';

/** The Node options every service process runs with, and why: see the file's comments. */
export const SERVICE_NODE_OPTIONS_FILE = fileURLToPath(new URL('../../services/node.env', import.meta.url));

/**
 * The arguments of `node` that run `entry` as Baton runs a service everywhere (the Dockerfile's CMD
 * does the same): the options of services/node.env, then TypeScript through tsx's loader in the
 * same process, so the pid is the service itself.
 */
export function serviceNodeArgs(entry: string): string[] {
  return [`--env-file=${SERVICE_NODE_OPTIONS_FILE}`, '--import', 'tsx', entry];
}
