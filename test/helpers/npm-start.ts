import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait-for.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A process of the run: every process whose environment carries the run's state directory. */
export interface RunProcess {
  pid: number;
  /** Its process group. */
  pgid: number;
  /** Its command line, arguments separated by spaces. */
  command: string;
}

/**
 * `npm start` as a person runs it from a terminal: its own process group (a terminal's foreground
 * job), a state directory of its own (connection.json and logs/, BATON_STATE_DIR), no
 * KAFKA_BROKERS or SCHEMA_REGISTRY_URL (so it starts its own Kafka and registry, on free ports),
 * and the gateway on a free port, so it collides neither with other tests nor with an `npm start`
 * running on this machine.
 */
export class NpmStartRun {
  /** Every line it printed, stdout and stderr, in the order they arrived. */
  readonly lines: string[] = [];
  readonly exited: Promise<void>;
  private readonly marker: string;

  private constructor(
    readonly child: ChildProcess,
    readonly stateDir: string,
  ) {
    this.marker = `BATON_STATE_DIR=${stateDir}`;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => this.lines.push(line));
    }
  }

  /** `args`: what follows `npm start --`, e.g. `['--secure']`. */
  static async start(args: readonly string[] = []): Promise<NpmStartRun> {
    const stateDir = await mkdtemp(join(tmpdir(), 'baton-npm-start-'));
    const env: Record<string, string | undefined> = {
      ...process.env,
      BATON_STATE_DIR: stateDir,
      GATEWAY_PORT: '0',
      KAFKA_BROKERS: undefined,
      SCHEMA_REGISTRY_URL: undefined,
      BATON_START_LOGS: undefined,
      HTTP_PORT: undefined,
    };
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
    const child = spawn('npm', ['start', ...(args.length > 0 ? ['--', ...args] : [])], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new NpmStartRun(child, stateDir);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Resolves once a line matching `pattern` has been printed; rejects if npm exits first. */
  async waitForLine(pattern: RegExp, timeoutMs: number): Promise<string> {
    return waitFor(
      () => {
        const line = this.lines.find((text) => pattern.test(text));
        if (line === undefined && this.child.exitCode !== null) {
          throw new Error(`npm start exited (${this.child.exitCode}) before printing ${pattern}`);
        }
        return line;
      },
      { description: `npm start to print ${pattern}:\n${this.lines.join('\n')}`, timeoutMs, intervalMs: 100 },
    );
  }

  /**
   * The processes of this run still alive (zombies aside): npm, its shell, start.ts, the services,
   * the JVMs and whatever else inherited the environment, wherever they are in the process tree
   * (the JVMs and services run in process groups of their own). Linux: read from /proc.
   */
  processes(): RunProcess[] {
    const found: RunProcess[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const environment = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
        if (!environment.includes(this.marker)) continue;
        const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
        // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (state === 'Z') continue;
        const command = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
        found.push({ pid: Number(entry), pgid: Number(pgrp), command });
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }
    return found;
  }

  /** The JSON records of its log file `name` (logs/<name>.log), with the lines that are not JSON. */
  logRecords(name: string): { records: Record<string, unknown>[]; other: string[] } {
    const records: Record<string, unknown>[] = [];
    const other: string[] = [];
    const text = readFileSync(join(this.stateDir, 'logs', `${name}.log`), 'utf8');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        records.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        other.push(line);
      }
    }
    return { records, other };
  }

  /** The names of its log files, without .log. */
  logNames(): string[] {
    return readdirSync(join(this.stateDir, 'logs'))
      .filter((file) => file.endsWith('.log'))
      .map((file) => file.slice(0, -'.log'.length));
  }

  /** Kills whatever of the run is left (SIGKILL), then removes its state directory. */
  async dispose(): Promise<void> {
    for (const left of this.processes()) {
      try {
        process.kill(left.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await rm(this.stateDir, { recursive: true, force: true });
  }
}
