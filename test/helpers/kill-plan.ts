/**
 * When a chaos run SIGKILLs which service. Kills are triggered by progress, never by the clock: a
 * kill fires once its victim has done a drawn number of handoffs more since the later of its own
 * (re)start and the previous kill, so every kill lands while the victim is working.
 *
 * Kills come in pairs, one of each service, so both kinds are killed (from 2 kills on) and the
 * second kill of a pair overlaps the first one's restart: a killed consumer's group waits out the
 * dead member's session (10 s in tests) before the new member gets partitions, and two such waits at once
 * cost one. For the second victim to reach its kill while the first is down, it needs handoffs
 * queued, so the service with the shorter queue goes first (`pairOrder`) and the second kill's step
 * is at most half of the other's queue.
 */
export type Victim = 'router' | 'agent';

/**
 * How many handoffs each kill waits for: drawn between a quarter of and one `1 / (3 * kills)`th
 * of the handoffs, so the plan is done well before the last handoff.
 */
export function planKillSteps(kills: number, handoffs: number, random: () => number): number[] {
  const maxStep = Math.max(4, Math.floor(handoffs / (3 * kills)));
  const minStep = Math.max(1, Math.floor(maxStep / 4));
  return Array.from({ length: kills }, () => minStep + Math.floor(random() * (maxStep - minStep + 1)));
}

/** The order of a pair's kills: the service with fewer handoffs queued first (the router on a tie). */
export function pairOrder(queued: Record<Victim, number>): [Victim, Victim] {
  return queued.agent > queued.router ? ['router', 'agent'] : ['agent', 'router'];
}

/**
 * The step a kill waits for: the planned one, at most an even share of the victim's handoffs still
 * to do over its kills still to make (this one included), so a victim that runs ahead of the plan
 * is still killed before it runs out of work, and at most `queued` when given. At least 1.
 */
export function cappedStep(planned: number, remaining: number, killsLeft: number, queued = Infinity): number {
  return Math.max(1, Math.min(planned, Math.floor(remaining / (killsLeft + 1)), queued));
}

/** mulberry32: a small seeded generator, so a run's plan is printed as one number and replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
