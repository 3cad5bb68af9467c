import { readFile } from 'node:fs/promises';

/** Peak resident set of a process (VmHWM), in MiB; read before it exits. */
export async function peakRssMiB(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return vmHwmMiB(status);
}

/** VmHWM of a /proc/<pid>/status text, in MiB to one decimal; NaN when absent. */
export function vmHwmMiB(status: string): number {
  const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kib / 1024) * 10) / 10;
}
