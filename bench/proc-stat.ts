import { spawnSync } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';

/** The fields of a /proc/<pid>/stat line that CPU accounting needs; times in clock ticks. */
export interface ProcStat {
  pid: number;
  ppid: number;
  utimeTicks: number;
  stimeTicks: number;
}

/**
 * Parses one /proc/<pid>/stat line (proc(5)). The command name, field 2, is in parentheses and may
 * itself hold spaces and parentheses, so the fields after it are counted from its last `)`.
 */
export function parseProcStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  // From field 3 (state) on: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
  const rest = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const field = (n: number): number => {
    const value = Number(rest[n - 3]);
    if (!Number.isInteger(value))
      throw new Error(`/proc/<pid>/stat field ${n} is not an integer: ${line.slice(0, 80)}`);
    return value;
  };
  return { pid: Number(line.slice(0, open).trim()), ppid: field(4), utimeTicks: field(14), stimeTicks: field(15) };
}

/** `root` and every process descended from it, found through the parent pids of `stats`. */
export function processTree(root: number, stats: readonly ProcStat[]): number[] {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Share of one core, in percent to two decimals: 100 means one core busy the whole time. */
export function cpuPercent(cpuSeconds: number, wallSeconds: number): number {
  if (!(wallSeconds > 0)) throw new RangeError(`the measured window must be positive, not ${wallSeconds} s`);
  return Math.round((cpuSeconds / wallSeconds) * 10_000) / 100;
}

/**
 * The socket inodes listening on TCP `port` in a /proc/net/tcp or /proc/net/tcp6 table (state 0A
 * is LISTEN; addresses are hex, the port after the colon).
 */
export function listeningInodes(table: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return table
    .split('\n')
    .slice(1)
    .map((row) => row.trim().split(/\s+/))
    .filter((fields) => fields.length > 9 && fields[1]?.split(':')[1] === hexPort && fields[3] === '0A')
    .map((fields) => fields[9]!);
}

/** The kernel's clock ticks per second, which /proc times count in. */
export function clockTicksPerSecond(): number {
  const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(result.stdout?.trim());
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
}

/** Every process's stat line that could still be read (processes may end while this runs). */
export async function readAllProcStats(): Promise<ProcStat[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const stats = await Promise.all(
    pids.map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').then(parseProcStat, () => undefined)),
  );
  return stats.filter((stat): stat is ProcStat => stat !== undefined);
}

/**
 * CPU ticks (user + system) of each root process together with its live descendants, from one
 * reading of /proc. A root that is no longer running is left out of the map.
 */
export async function treeCpuTicks(roots: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  const stats = await readAllProcStats();
  const byPid = new Map(stats.map((stat) => [stat.pid, stat]));
  const ticks = new Map<string, number>();
  for (const [name, root] of roots) {
    if (!byPid.has(root)) continue;
    ticks.set(
      name,
      processTree(root, stats).reduce((sum, pid) => {
        const stat = byPid.get(pid);
        return sum + (stat === undefined ? 0 : stat.utimeTicks + stat.stimeTicks);
      }, 0),
    );
  }
  return ticks;
}

/**
 * The pid of the process listening on TCP `port` on this machine, or undefined when none is found
 * (the port is another machine's, or the listener is a process this user may not inspect). For a
 * broker in a container this is the port forwarder, not the JVM.
 */
export async function findListeningPid(port: number): Promise<number | undefined> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((path) => readFile(path, 'utf8').catch(() => '')),
  );
  const inodes = new Set(tables.flatMap((table) => listeningInodes(table, port)));
  if (inodes.size === 0) return undefined;
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(inode)) return Number(pid);
    }
  }
  return undefined;
}
