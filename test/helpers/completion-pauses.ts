/**
 * How long the work stood still after a fault: from a timeline of when the count of completed
 * handoffs last rose, the longest stretch without a rise in a window. Shared by the chaos runs.
 */

/** When the completed count rose, in ms since the run began, and to what; in time order. */
export type CompletionTimeline = readonly (readonly [atMs: number, completed: number])[];

/**
 * The longest time in [fromMs, toMs] without a completion: from `fromMs` to the first rise, and
 * between rises. The stretch after the last rise in the window counts only up to `toMs` and only
 * while work was still to do (`total` not reached), since a run that is done is not paused.
 */
export function longestPauseMs(timeline: CompletionTimeline, fromMs: number, toMs: number, total: number): number {
  let longest = 0;
  let previous = fromMs;
  let completed = 0;
  for (const [atMs, count] of timeline) {
    if (atMs <= fromMs) {
      completed = count;
      continue;
    }
    if (atMs > toMs) break;
    longest = Math.max(longest, atMs - previous);
    previous = atMs;
    completed = count;
  }
  if (completed < total) longest = Math.max(longest, toMs - previous);
  return longest;
}

/** When the last handoff was completed, in ms since the run began; undefined when none was. */
export function lastCompletionMs(timeline: CompletionTimeline): number | undefined {
  return timeline.at(-1)?.[0];
}
