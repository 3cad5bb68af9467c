import { inject } from 'vitest';
import { realHost } from './host.js';
import { findTool, suiteVerdict, type ToolName, type ToolStatuses } from './tools.js';

export interface SuiteTools {
  /** The suite is not run: its reason has been printed. Give it to describe.skipIf. */
  skip: boolean;
  /** Throws why a tool is missing (under CI, where the suite runs anyway): first in the suite's beforeAll. */
  assertAvailable(): void;
  /** A tool's executable (after assertAvailable). */
  path(name: ToolName): string;
}

/**
 * The system tools a test file drives, as global-setup.ts found (and maybe installed) them; looked
 * up here, without installing, when no globalSetup provided them. Call once, at the top of the file:
 * a skipped suite prints its one line then.
 */
export function systemToolsFor(suite: string, names: readonly ToolName[]): SuiteTools {
  const provided: ToolStatuses = inject('systemTools') ?? {};
  const statuses: ToolStatuses = {};
  for (const name of names) statuses[name] = provided[name] ?? findTool(name, realHost());
  const verdict = suiteVerdict(suite, names, statuses, process.env);
  if (verdict.state === 'skip') console.warn(verdict.message);
  return {
    skip: verdict.state === 'skip',
    assertAvailable() {
      if (verdict.state !== 'ready') throw new Error(verdict.message);
    },
    path(name) {
      const status = statuses[name];
      if (!status?.found) throw new Error(`${name} is not available`);
      return status.path;
    },
  };
}
