/**
 * How long ago `iso` was as of `now`, as the CLI and the console show a task's age and idle time:
 * `45s`, `12m`, `3h 20m`, `2d 4h`; `-` for a time that does not parse.
 */
export function ageText(iso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1_000));
  if (Number.isNaN(seconds)) return '-';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}
