import { readFile } from 'node:fs/promises';
import { BatonError } from '@baton/errors';
import { parseDocument } from 'yaml';
import { compileRoutingTable } from './compile-routing-table.js';
import type { RoutingTable } from './routing-table.js';
import type { TableProblem } from './table-problem.js';

/**
 * Reads and checks the routing table at `path`. Throws BatonError CONFIG_INVALID when the file
 * cannot be read or the table has problems, so the router refuses to start with a table it
 * would misroute by.
 */
export async function loadRoutingTable(path: string): Promise<RoutingTable> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new BatonError('CONFIG_INVALID', `cannot read routing table ${path}: ${(cause as Error).message}`, {
      cause,
      details: { source: path },
    });
  }
  return parseRoutingTable(text, path);
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
  const [first, ...rest] = compiled.problems as [TableProblem, ...TableProblem[]];
  const where = first.path === '' ? '' : `${first.path}: `;
  const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
  throw new BatonError('CONFIG_INVALID', `invalid routing table ${source}: ${where}${first.message}${more}`, {
    path: first.path,
    details: { source, problems: compiled.problems },
  });
}

function readYaml(text: string): { ok: true; value: unknown } | { ok: false; problems: TableProblem[] } {
  const document = parseDocument(text);
  // Warnings (an unknown tag, say) are refused too: the table would not mean what it says.
  const findings = [...document.errors, ...document.warnings];
  if (findings.length > 0) {
    // The first line holds the reason and its line and column; the rest is a source excerpt.
    return { ok: false, problems: findings.map((finding) => yamlProblem(finding.message.split('\n')[0] ?? '')) };
  }
  try {
    return { ok: true, value: document.toJS() };
  } catch (cause) {
    // toJS throws for what the parser lets through, such as an alias to an undefined anchor.
    return { ok: false, problems: [yamlProblem((cause as Error).message)] };
  }
}

function yamlProblem(reason: string): TableProblem {
  return { path: '', message: `not valid YAML: ${reason.replace(/:$/, '')}` };
}
