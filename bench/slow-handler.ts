/** The slow-handler row's parameters and its ideal, apart from any Kafka code so they can be unit tested. */

export const SLOW_AGENT_ID = 'slow_agent';
/** A stand-in for a model call. */
export const SLOW_HANDLER_MS = 2_000;
export const SLOW_TASKS = 200;
/**
 * Handoffs per task, handled in order. Two rather than one: with one, 200 tasks over 64 slots
 * take 4 rounds of 2 s for 3.1 rounds of work, so even a perfect engine reaches only 0.78 of
 * min(64, 200) / 2 s; with two it is 7 rounds for 6.25 (0.89), and the row measures the engine,
 * not the rounding.
 */
export const SLOW_HANDOFFS_PER_TASK = 2;

/** The ideal: `min(concurrency, tasks)` handlers at once, each taking `handlerMs`. */
export function idealPerS(concurrency: number, tasks: number, handlerMs: number): number {
  return (Math.min(concurrency, tasks) * 1000) / handlerMs;
}

/**
 * The best a perfect engine can do with this many handoffs: whole rounds of
 * `min(concurrency, tasks)` handlers, the last one partly empty. Shown beside the ideal so a
 * reader can tell the rounding from the engine.
 */
export function roundBoundPerS(concurrency: number, tasks: number, handoffs: number, handlerMs: number): number {
  const slots = Math.min(concurrency, tasks);
  const perTask = Math.ceil(handoffs / tasks);
  // A task's handoffs run one after another, so there are at least `perTask` rounds.
  const rounds = Math.max(perTask, Math.ceil(handoffs / slots));
  return (handoffs * 1000) / (rounds * handlerMs);
}
