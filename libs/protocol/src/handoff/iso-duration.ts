const DURATION =
  /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const UNIT_MS = [7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1_000] as const;

/**
 * Milliseconds of an ISO 8601 duration in weeks, days, hours, minutes and seconds (PT2H, P1DT30M,
 * PT0.5S), or undefined when the text is not one. Years and months are refused: their length
 * depends on the calendar date they start from, and a time limit must mean one span.
 */
export function isoDurationMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (match === null || text === 'P' || text.endsWith('T')) return undefined;
  let total = 0;
  for (const [index, unitMs] of UNIT_MS.entries()) {
    const amount = match[index + 1];
    if (amount !== undefined) total += Number(amount) * unitMs;
  }
  return Math.round(total);
}
