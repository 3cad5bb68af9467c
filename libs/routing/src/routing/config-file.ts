import { readFile } from 'node:fs/promises';
import { BatonError } from '@baton/errors';
import { parseDocument } from 'yaml';
import type { TableProblem } from './table-problem.js';

/** The text of the configuration file at `path`; one that cannot be read is CONFIG_INVALID naming it. */
export async function readConfigFile(what: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new BatonError('CONFIG_INVALID', `cannot read ${what} ${path}: ${(cause as Error).message}`, {
      cause,
      details: { source: path },
    });
  }
}

/**
 * A configuration file's YAML text as a plain value, or the problems that make it unreadable.
 * Shared by the routing table and the sender policy, which refuse the same things.
 */
export function readYaml(text: string): { ok: true; value: unknown } | { ok: false; problems: TableProblem[] } {
  const document = parseDocument(text);
  // Warnings (an unknown tag, say) are refused too: the file would not mean what it says.
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
