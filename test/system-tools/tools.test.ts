import { describe, expect, it } from 'vitest';
import {
  TOOLS,
  ensureTools,
  failureLine,
  findTool,
  isCI,
  packagesWithCandidate,
  suiteVerdict,
  toolsForProjects,
  type Host,
  type RunResult,
  type ToolName,
} from './tools.js';

const BIN = '/usr/bin';
const OK: RunResult = { code: 0, stdout: '', stderr: '' };

function policyOf(packages: string[]): string {
  return packages.map((name) => `${name}:\n  Installed: (none)\n  Candidate: 1.0-1\n  Version table:\n`).join('');
}

interface FakeOptions {
  /** Executables in /usr/bin. */
  present?: string[];
  uid?: number;
  env?: Record<string, string>;
  /** Packages apt-cache policy shows a candidate for. */
  available?: string[];
  /** What sudo -n true answers. */
  sudo?: RunResult;
  update?: RunResult;
  install?: RunResult;
  /** Packages whose install leaves no executable (as when PATH does not reach it). */
  installsNothing?: string[];
}

/** A machine: files in /usr/bin, and apt-get that "installs" a package by adding its command. */
function fakeHost(options: FakeOptions = {}) {
  const files = new Set((options.present ?? ['apt-get', 'apt-cache']).map((name) => `${BIN}/${name}`));
  const calls: string[] = [];
  const commandOf = (debianPackage: string) =>
    Object.values(TOOLS).find((spec) => spec.debianPackage === debianPackage)!.command;
  const host: Host = {
    env: { PATH: `/nowhere:${BIN}`, ...options.env },
    uid: options.uid ?? 0,
    isExecutable: (path) => files.has(path),
    async run(command, args) {
      const line = [command, ...args].join(' ');
      calls.push(line);
      if (line === 'sudo -n true') return options.sudo ?? OK;
      if (command === 'apt-cache')
        return { ...OK, stdout: policyOf(options.available ?? ['chromium', 'docker-compose']) };
      const apt = args.indexOf('apt-get');
      if (apt === -1) throw new Error(`unexpected command: ${line}`);
      if (args[apt + 1] === 'update') return options.update ?? OK;
      if (args[apt + 1] === 'install') {
        const result = options.install ?? OK;
        if (result.code === 0) {
          for (const name of args.slice(apt + 2).filter((arg) => !arg.startsWith('-') && !arg.includes('='))) {
            if (!options.installsNothing?.includes(name)) files.add(`${BIN}/${commandOf(name)}`);
          }
        }
        return result;
      }
      throw new Error(`unexpected command: ${line}`);
    },
  };
  return { host, calls };
}

function recordedProgress() {
  const lines: string[] = [];
  return { lines, progress: { start: (text: string) => lines.push(text), end: (text: string) => lines.push(text) } };
}

const ALL: ToolName[] = ['chromium', 'docker-compose', 'kubectl'];
const APT = 'env DEBIAN_FRONTEND=noninteractive apt-get';
const INSTALL = `${APT} install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=120`;

describe('findTool', () => {
  it('finds a command on PATH', () => {
    const { host } = fakeHost({ present: ['kubectl'] });
    expect(findTool('kubectl', host)).toEqual({ found: true, path: '/usr/bin/kubectl' });
    expect(findTool('chromium', host)).toEqual({ found: false, reason: 'Chromium is not installed' });
  });

  it('takes the Chromium CHROMIUM_PATH names, and only it', () => {
    const { host } = fakeHost({ present: ['chromium', 'chrome'], env: { CHROMIUM_PATH: `${BIN}/chrome` } });
    expect(findTool('chromium', host)).toEqual({ found: true, path: '/usr/bin/chrome' });
    host.env.CHROMIUM_PATH = '/opt/none/chrome';
    expect(findTool('chromium', host)).toEqual({
      found: false,
      reason: 'CHROMIUM_PATH=/opt/none/chrome is not an executable file',
    });
  });
});

describe('ensureTools', () => {
  it('installs nothing and says nothing when every tool is there', async () => {
    const { host, calls } = fakeHost({ present: ['apt-get', 'chromium', 'docker-compose', 'kubectl'] });
    const { lines, progress } = recordedProgress();
    expect(await ensureTools(ALL, host, progress)).toEqual({
      chromium: { found: true, path: '/usr/bin/chromium' },
      'docker-compose': { found: true, path: '/usr/bin/docker-compose' },
      kubectl: { found: true, path: '/usr/bin/kubectl' },
    });
    expect(calls).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('as root, installs the missing ones in one apt-get run after apt-get update, on one progress line', async () => {
    const { host, calls } = fakeHost({
      present: ['apt-get', 'apt-cache', 'kubectl'],
      available: ['chromium', 'docker-compose'],
    });
    const { lines, progress } = recordedProgress();
    const statuses = await ensureTools(ALL, host, progress);
    expect(statuses).toEqual({
      chromium: { found: true, path: '/usr/bin/chromium' },
      'docker-compose': { found: true, path: '/usr/bin/docker-compose' },
      kubectl: { found: true, path: '/usr/bin/kubectl' },
    });
    expect(calls).toEqual([
      `${APT} update -qq`,
      'apt-cache policy chromium docker-compose',
      `${INSTALL} chromium docker-compose`,
    ]);
    expect(lines).toEqual([
      'installing chromium docker-compose for the browser and deployment tests…',
      'installed chromium docker-compose',
    ]);
  });

  it('goes through sudo -n when not root and sudo asks no password', async () => {
    const { host, calls } = fakeHost({ uid: 1000, present: ['apt-get', 'apt-cache', 'sudo'] });
    const statuses = await ensureTools(['docker-compose'], host);
    expect(statuses['docker-compose']).toEqual({ found: true, path: '/usr/bin/docker-compose' });
    expect(calls).toEqual([
      'sudo -n true',
      `sudo -n ${APT} update -qq`,
      'apt-cache policy docker-compose',
      `sudo -n ${INSTALL} docker-compose`,
    ]);
  });

  it('installs nothing when not root and sudo asks for a password, or there is no sudo', async () => {
    const denied = fakeHost({ uid: 1000, present: ['apt-get', 'sudo'], sudo: { code: 1, stdout: '', stderr: '' } });
    const { lines, progress } = recordedProgress();
    expect(await ensureTools(['chromium'], denied.host, progress)).toEqual({
      chromium: {
        found: false,
        reason:
          'Chromium is not installed and could not be (apt-get: permission denied: not root, and sudo asks for a password)',
      },
    });
    expect(denied.calls).toEqual(['sudo -n true']);
    expect(lines).toEqual([]);

    const noSudo = fakeHost({ uid: 1000, present: ['apt-get'] });
    expect(await ensureTools(['chromium'], noSudo.host)).toEqual({
      chromium: {
        found: false,
        reason: 'Chromium is not installed and could not be (apt-get: permission denied: not root, and no sudo)',
      },
    });
    expect(noSudo.calls).toEqual([]);
  });

  it('installs nothing where there is no apt-get', async () => {
    const { host, calls } = fakeHost({ present: [] });
    expect(await ensureTools(['kubectl'], host)).toEqual({
      kubectl: { found: false, reason: 'kubectl is not installed and could not be (not a Debian system: no apt-get)' },
    });
    expect(calls).toEqual([]);
  });

  it('installs what apt knows and says which package it does not know', async () => {
    const { host, calls } = fakeHost({ available: ['chromium', 'docker-compose'] });
    const { lines, progress } = recordedProgress();
    const statuses = await ensureTools(ALL, host, progress);
    expect(statuses.chromium?.found).toBe(true);
    expect(statuses['docker-compose']?.found).toBe(true);
    expect(statuses.kubectl).toEqual({
      found: false,
      reason: "kubectl is not installed and could not be (no package kubectl in apt's sources)",
    });
    expect(calls.at(-1)).toBe(`${INSTALL} chromium docker-compose`);
    expect(lines).toEqual([
      'installing chromium docker-compose kubectl for the browser and deployment tests…',
      "installed chromium docker-compose; kubectl not installed: no package kubectl in apt's sources",
    ]);
  });

  it('says what apt-get answered without a network', async () => {
    const { host } = fakeHost({
      update: {
        code: 100,
        stdout: '',
        stderr:
          "W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure resolving 'deb.debian.org'\nE: Some index files failed to download. They have been ignored, or old ones used instead.\n",
      },
      install: {
        code: 100,
        stdout: '',
        stderr:
          "E: Failed to fetch http://deb.debian.org/debian/pool/main/c/chromium/chromium_1.0-1_amd64.deb  Temporary failure resolving 'deb.debian.org'\nE: Unable to fetch some archives, maybe run apt-get update or try with --fix-missing?\n",
      },
    });
    const statuses = await ensureTools(['chromium'], host);
    expect(statuses.chromium).toEqual({
      found: false,
      reason:
        'Chromium is not installed and could not be (apt-get install: E: Unable to fetch some archives, maybe run apt-get update or try with --fix-missing?; apt-get update: E: Some index files failed to download. They have been ignored, or old ones used instead.)',
    });
  });

  it('says so when the install left the command off PATH', async () => {
    const { host } = fakeHost({ installsNothing: ['chromium'] });
    expect((await ensureTools(['chromium'], host)).chromium).toEqual({
      found: false,
      reason: 'Chromium is not installed and could not be (apt-get installed chromium, but no chromium is on PATH)',
    });
  });

  it('never installs over the Chromium CHROMIUM_PATH names', async () => {
    const { host, calls } = fakeHost({ env: { CHROMIUM_PATH: '/opt/none/chrome' } });
    expect(await ensureTools(['chromium'], host)).toEqual({
      chromium: { found: false, reason: 'CHROMIUM_PATH=/opt/none/chrome is not an executable file' },
    });
    expect(calls).toEqual([]);
  });
});

describe('suiteVerdict', () => {
  const missing = {
    found: false as const,
    reason: 'Chromium is not installed and could not be (apt-get: permission denied: not root, and no sudo)',
  };

  it('runs a suite whose tools are there', () => {
    expect(suiteVerdict('browser test', ['chromium'], { chromium: { found: true, path: '/x' } }, {})).toEqual({
      state: 'ready',
    });
  });

  it('skips a suite with a missing tool, saying why and how to install it', () => {
    expect(suiteVerdict('browser test', ['chromium'], { chromium: missing }, { CI: 'false' })).toEqual({
      state: 'skip',
      message:
        'browser test not run: Chromium is not installed and could not be (apt-get: permission denied: not root, and no sudo); install it with: sudo apt-get install chromium (or set CHROMIUM_PATH to a Chromium or Chrome)',
    });
  });

  it('fails it instead under CI', () => {
    const verdict = suiteVerdict('browser test', ['chromium'], { chromium: missing }, { CI: 'true' });
    expect(verdict.state).toBe('fail');
    expect(verdict).toHaveProperty('message', expect.stringMatching(/^browser test cannot run: Chromium is not/));
  });

  it('counts a tool nobody looked for as missing', () => {
    expect(suiteVerdict('deployment test', ['kubectl'], {}, {})).toMatchObject({
      state: 'skip',
      message: expect.stringContaining('kubectl was not looked for'),
    });
  });
});

describe('the helpers', () => {
  it('reads CI as set unless empty, 0 or false', () => {
    expect([undefined, '', '0', 'false', 'FALSE'].map((CI) => isCI({ CI }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['true', '1', 'yes'].map((CI) => isCI({ CI }))).toEqual([true, true, true]);
  });

  it('needs each project’s tools once', () => {
    expect(toolsForProjects(['unit', 'integration', 'deploy'])).toEqual(['chromium', 'docker-compose', 'kubectl']);
    expect(toolsForProjects(['deploy'])).toEqual(['docker-compose', 'kubectl']);
    expect(toolsForProjects(['unit'])).toEqual([]);
  });

  it('reads the candidates of apt-cache policy', () => {
    const output = `${policyOf(['chromium'])}kubectl:\n  Installed: (none)\n  Candidate: (none)\n  Version table:\n`;
    expect([...packagesWithCandidate(output)]).toEqual(['chromium']);
  });

  it('shows the last apt error, else the last line, else the exit code', () => {
    expect(failureLine({ code: 100, stdout: 'x', stderr: 'E: one\nW: two\nE: three\nN: note' })).toBe('E: three');
    expect(failureLine({ code: 1, stdout: 'last words\n', stderr: '' })).toBe('last words');
    expect(failureLine({ code: 2, stdout: '', stderr: '' })).toBe('exit code 2');
    expect(failureLine({ code: null, stdout: '', stderr: '', error: 'apt-get update timed out after 300 s' })).toBe(
      'apt-get update timed out after 300 s',
    );
  });
});
