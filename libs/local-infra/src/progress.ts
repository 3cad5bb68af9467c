/** Receives one human-readable line about a slow step: a download, a start, a wait. */
export type ProgressListener = (message: string) => void;

export const printProgress: ProgressListener = (message) => {
  process.stderr.write(`[baton] ${message}\n`);
};

export function formatDuration(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

export function formatBytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** A progress callback for a wait that speaks up only every `intervalMs`, not on every retry. */
export function waitProgress(
  onProgress: ProgressListener,
  what: string,
  intervalMs = 5_000,
): (elapsedMs: number) => void {
  let nextAtMs = intervalMs;
  return (elapsedMs) => {
    if (elapsedMs < nextAtMs) return;
    nextAtMs = elapsedMs + intervalMs;
    onProgress(`still waiting for ${what} (${formatDuration(elapsedMs)})`);
  };
}
