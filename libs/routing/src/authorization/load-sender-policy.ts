import { readConfigFile, readYaml } from '../routing/config-file.js';
import type { RoutingTable } from '../routing/routing-table.js';
import { problemsError } from '../routing/table-problem.js';
import { compileSenderPolicy } from './compile-sender-policy.js';
import type { SenderPolicy } from './sender-policy.js';

/**
 * Reads and checks the sender policy at `path` against the routing table it sits beside. Throws
 * BatonError CONFIG_INVALID when the file cannot be read or the policy has problems, so the router
 * refuses to start rather than refuse (or let through) handoffs by a policy that does not say what
 * was meant.
 */
export async function loadSenderPolicy(path: string, table: RoutingTable): Promise<SenderPolicy> {
  return parseSenderPolicy(await readConfigFile('sender policy', path), table, path);
}

/**
 * Parses and checks a sender policy given as YAML text; `source` names it in errors. Throws
 * BatonError CONFIG_INVALID carrying every problem in `details.problems`; its message and `path`
 * are the first problem's.
 */
export function parseSenderPolicy(text: string, table: RoutingTable, source = 'sender policy'): SenderPolicy {
  const parsed = readYaml(text);
  const compiled = parsed.ok ? compileSenderPolicy(parsed.value, table.agents) : parsed;
  if (compiled.ok) return compiled.policy;
  throw problemsError('sender policy', source, compiled.problems);
}
