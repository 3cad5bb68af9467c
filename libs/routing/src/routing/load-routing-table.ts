import { compileRoutingTable } from './compile-routing-table.js';
import { readConfigFile, readYaml } from './config-file.js';
import type { RoutingTable } from './routing-table.js';
import { problemsError } from './table-problem.js';

/**
 * Reads and checks the routing table at `path`. Throws BatonError CONFIG_INVALID when the file
 * cannot be read or the table has problems, so the router refuses to start with a table it
 * would misroute by.
 */
export async function loadRoutingTable(path: string): Promise<RoutingTable> {
  return parseRoutingTable(await readConfigFile('routing table', path), path);
}

/**
 * Parses and checks a routing table given as YAML text; `source` names it in errors. Throws
 * BatonError CONFIG_INVALID carrying every problem in `details.problems`; its message and `path`
 * are the first problem's.
 */
export function parseRoutingTable(text: string, source = 'routing table'): RoutingTable {
  const parsed = readYaml(text);
  const compiled = parsed.ok ? compileRoutingTable(parsed.value) : parsed;
  if (compiled.ok) return compiled.table;
  throw problemsError('routing table', source, compiled.problems);
}
