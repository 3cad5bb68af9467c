import type { TestProject } from 'vitest/node';
import { realHost } from './host.js';
import { ensureTools, toolsForProjects, type Progress, type ToolStatuses } from './tools.js';

/**
 * The globalSetup of the projects whose tests drive Chromium, docker-compose or kubectl: looks for
 * them and installs the missing ones, once per run for every project of the run (one apt-get), and
 * provides what it found to the tests (suite.ts), which run, skip saying why, or fail under CI.
 */

/** The one look-up of this vitest process: each project's globalSetup runs in it, one after another. */
const ONCE = Symbol.for('baton.system-tools');

export default async function setup(project: TestProject): Promise<void> {
  const run = globalThis as { [ONCE]?: Promise<ToolStatuses> };
  run[ONCE] ??= ensureTools(
    toolsForProjects(project.vitest.projects.map((entry) => entry.name)),
    realHost(),
    lineProgress(process.stdout),
  );
  project.provide('systemTools', await run[ONCE]);
}

/**
 * The install as one line when it starts, one when it ends: whole lines, so that a CI log shows the
 * first at once and vitest's live summary on a terminal does not split them.
 */
function lineProgress(out: NodeJS.WritableStream): Progress {
  let started = 0;
  return {
    start(text) {
      started = Date.now();
      out.write(`${text}\n`);
    },
    end(text) {
      out.write(`${text} (${Math.round((Date.now() - started) / 1000)} s)\n`);
    },
  };
}
