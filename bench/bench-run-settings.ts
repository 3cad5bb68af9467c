/** What every bench entry (run.ts, signatures.ts, compare.ts) runs with: its topics' partitions, its tasks, its agent. */
export const PARTITIONS = 6;
export const TASKS = 200;
export const AGENT = 'bench_agent';

/** Progress goes to stderr: stdout carries the report and its JSON line. */
export function progress(text: string): void {
  process.stderr.write(`[bench] ${text}\n`);
}
