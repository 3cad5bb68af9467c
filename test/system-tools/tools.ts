import { delimiter, join } from 'node:path';

/**
 * The programs some tests drive that npm cannot install: which are there, installing the missing
 * ones from Debian's packages where the machine allows it, and whether a suite runs, is skipped
 * (saying why) or, under CI, fails. Everything the machine is asked goes through a Host, so the
 * decisions are tested without installing anything (tools.test.ts).
 */

export type ToolName = 'chromium' | 'docker-compose' | 'kubectl';

export interface ToolSpec {
  /** What a message calls it. */
  label: string;
  /** The executable looked up on PATH. */
  command: string;
  /** A variable that names the executable instead; when set, nothing is looked up or installed. */
  pathVariable?: string;
  /** The Debian package that provides `command`. */
  debianPackage: string;
  /** The tests that need it, as the progress line says. */
  purpose: string;
  /** What a person does about it, ending a skip message. */
  howToInstall: string;
}

export const TOOLS: Record<ToolName, ToolSpec> = {
  chromium: {
    label: 'Chromium',
    command: 'chromium',
    pathVariable: 'CHROMIUM_PATH',
    debianPackage: 'chromium',
    purpose: 'browser',
    howToInstall: 'install it with: sudo apt-get install chromium (or set CHROMIUM_PATH to a Chromium or Chrome)',
  },
  'docker-compose': {
    label: 'docker-compose',
    command: 'docker-compose',
    debianPackage: 'docker-compose',
    purpose: 'deployment',
    howToInstall: 'install it with: sudo apt-get install docker-compose',
  },
  kubectl: {
    label: 'kubectl',
    command: 'kubectl',
    // Found only where a Kubernetes apt repository is configured: Debian 12's own kubernetes-client
    // (kubectl 1.20) cannot build infra/k8s, so it is never installed in its place.
    debianPackage: 'kubectl',
    purpose: 'deployment',
    howToInstall:
      "install a current kubectl: https://kubernetes.io/docs/tasks/tools/ (Debian 12's kubernetes-client, kubectl 1.20, cannot build infra/k8s)",
  },
};

/** The tools each vitest project's tests drive (the project names of vitest.config.ts). */
export const TOOLS_OF_PROJECT: Record<string, readonly ToolName[]> = {
  integration: ['chromium'],
  deploy: ['docker-compose', 'kubectl'],
};

/** The tools a run of these projects needs, each once. */
export function toolsForProjects(projects: readonly string[]): ToolName[] {
  return [...new Set(projects.flatMap((name) => TOOLS_OF_PROJECT[name] ?? []))];
}

export type ToolStatus = { found: true; path: string } | { found: false; reason: string };
export type ToolStatuses = Partial<Record<ToolName, ToolStatus>>;

export interface RunResult {
  /** null when the command did not start or was killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it did not start or was killed. */
  error?: string;
}

/** The machine, as the decisions see it. */
export interface Host {
  env: Record<string, string | undefined>;
  /** undefined where processes have none (Windows). */
  uid: number | undefined;
  isExecutable(path: string): boolean;
  run(command: string, args: string[], options?: { timeoutMs?: number }): Promise<RunResult>;
}

/** Told once before an install starts (what, for which tests), and once when it ends (what came of it). */
export interface Progress {
  start(text: string): void;
  end(text: string): void;
}

const APT_UPDATE_TIMEOUT_MS = 5 * 60_000;
const APT_INSTALL_TIMEOUT_MS = 15 * 60_000;

/** The first executable `command` on the host's PATH. */
export function which(command: string, host: Pick<Host, 'env' | 'isExecutable'>): string | undefined {
  for (const dir of (host.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    if (host.isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Whether a tool is there: the file its variable names, else its command on PATH. */
export function findTool(name: ToolName, host: Pick<Host, 'env' | 'isExecutable'>): ToolStatus {
  const spec = TOOLS[name];
  const named = spec.pathVariable === undefined ? undefined : host.env[spec.pathVariable];
  if (named) {
    return host.isExecutable(named)
      ? { found: true, path: named }
      : { found: false, reason: `${spec.pathVariable}=${named} is not an executable file` };
  }
  const path = which(spec.command, host);
  return path === undefined ? { found: false, reason: `${spec.label} is not installed` } : { found: true, path };
}

/** The line of a failed command worth showing: apt's last error, else its last line of output. */
export function failureLine(result: RunResult): string {
  const lines = `${result.stderr}\n${result.stdout}`
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const line =
    result.error ??
    lines.filter((entry) => entry.startsWith('E:')).at(-1) ??
    lines.at(-1) ??
    `exit code ${result.code ?? 'none'}`;
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** The packages `apt-cache policy` shows a candidate version for. */
export function packagesWithCandidate(policyOutput: string): Set<string> {
  const found = new Set<string>();
  let current: string | undefined;
  for (const line of policyOutput.split('\n')) {
    const header = /^(\S+):$/.exec(line);
    if (header) {
      current = header[1];
      continue;
    }
    const candidate = /^\s+Candidate:\s*(\S+)/.exec(line);
    if (candidate && current !== undefined && candidate[1] !== '(none)') found.add(current);
  }
  return found;
}

type Apt = { run(args: string[], timeoutMs: number): Promise<RunResult> } | { unavailable: string };

/** apt-get as root, or through sudo without a password; else why not. */
async function aptOf(host: Host): Promise<Apt> {
  if (which('apt-get', host) === undefined) return { unavailable: 'not a Debian system: no apt-get' };
  const command = ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'];
  if (host.uid !== 0) {
    if (which('sudo', host) === undefined) return { unavailable: 'apt-get: permission denied: not root, and no sudo' };
    const sudo = await host.run('sudo', ['-n', 'true'], { timeoutMs: 30_000 });
    if (sudo.code !== 0) {
      return { unavailable: 'apt-get: permission denied: not root, and sudo asks for a password' };
    }
    command.unshift('sudo', '-n');
  }
  const [program, ...prefix] = command as [string, ...string[]];
  return { run: (args, timeoutMs) => host.run(program, [...prefix, ...args], { timeoutMs }) };
}

/**
 * Looks for each tool and installs the missing ones in one apt-get run (after apt-get update) where
 * the machine allows it; returns each tool's path, or why it is missing.
 */
export async function ensureTools(
  names: readonly ToolName[],
  host: Host,
  progress: Progress = { start() {}, end() {} },
): Promise<ToolStatuses> {
  const statuses: ToolStatuses = {};
  for (const name of names) statuses[name] = findTool(name, host);
  // A tool named by its variable is the person's choice: never replaced by an install.
  const missing = names.filter((name) => {
    const variable = TOOLS[name].pathVariable;
    return !statuses[name]!.found && !(variable !== undefined && host.env[variable]);
  });
  if (missing.length === 0) return statuses;

  const notInstalled = (name: ToolName, why: string): ToolStatus => ({
    found: false,
    reason: `${TOOLS[name].label} is not installed and could not be (${why})`,
  });
  const apt = await aptOf(host);
  if ('unavailable' in apt) {
    for (const name of missing) statuses[name] = notInstalled(name, apt.unavailable);
    return statuses;
  }

  const packages = missing.map((name) => TOOLS[name].debianPackage);
  const purposes = [...new Set(missing.map((name) => TOOLS[name].purpose))];
  progress.start(`installing ${packages.join(' ')} for the ${purposes.join(' and ')} tests…`);

  const update = await apt.run(['update', '-qq'], APT_UPDATE_TIMEOUT_MS);
  const updateNote = update.code === 0 ? '' : `; apt-get update: ${failureLine(update)}`;
  const policy = await host.run('apt-cache', ['policy', ...packages], { timeoutMs: 60_000 });
  const available = packagesWithCandidate(policy.stdout);
  const failed = new Map<ToolName, string>();
  for (const name of missing) {
    const debianPackage = TOOLS[name].debianPackage;
    if (!available.has(debianPackage)) failed.set(name, `no package ${debianPackage} in apt's sources${updateNote}`);
  }
  const installable = missing.filter((name) => !failed.has(name));
  if (installable.length > 0) {
    const install = await apt.run(
      [
        'install',
        '-y',
        '-qq',
        '--no-install-recommends',
        '-o',
        'DPkg::Lock::Timeout=120',
        ...installable.map((name) => TOOLS[name].debianPackage),
      ],
      APT_INSTALL_TIMEOUT_MS,
    );
    if (install.code !== 0) {
      for (const name of installable) failed.set(name, `apt-get install: ${failureLine(install)}${updateNote}`);
    }
  }

  for (const name of missing) {
    const found = findTool(name, host);
    if (found.found) statuses[name] = found;
    else {
      const spec = TOOLS[name];
      statuses[name] = notInstalled(
        name,
        failed.get(name) ?? `apt-get installed ${spec.debianPackage}, but no ${spec.command} is on PATH`,
      );
    }
  }
  const installed = missing.filter((name) => statuses[name]!.found).map((name) => TOOLS[name].debianPackage);
  const failures = missing
    .filter((name) => !statuses[name]!.found)
    .map((name) => `${name} not installed: ${failed.get(name) ?? 'not on PATH after apt-get install'}`);
  progress.end([...(installed.length > 0 ? [`installed ${installed.join(' ')}`] : []), ...failures].join('; '));
  return statuses;
}

/** CI=true (any value but empty, 0 or false): a missing tool fails instead of skipping. */
export function isCI(env: Record<string, string | undefined>): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

export type Verdict = { state: 'ready' } | { state: 'skip'; message: string } | { state: 'fail'; message: string };

/** Whether a suite that drives `names` runs, is skipped (and why), or fails (CI). */
export function suiteVerdict(
  suite: string,
  names: readonly ToolName[],
  statuses: ToolStatuses,
  env: Record<string, string | undefined>,
): Verdict {
  const missing = names.flatMap((name) => {
    const status = statuses[name] ?? { found: false, reason: `${TOOLS[name].label} was not looked for` };
    return status.found ? [] : [`${status.reason}; ${TOOLS[name].howToInstall}`];
  });
  if (missing.length === 0) return { state: 'ready' };
  if (isCI(env)) {
    return {
      state: 'fail',
      message: `${suite} cannot run: ${missing.join('; ')} (CI is set, so a missing tool fails instead of skipping)`,
    };
  }
  return { state: 'skip', message: `${suite} not run: ${missing.join('; ')}` };
}
