import { handoffOutcomeValidator } from '../events/handoff-outcome.js';
import { stagedContextValidator } from '../lifecycle/staged-context.js';
import { handoffValidators } from './validate-handoff.js';
import { lifecycleValidator } from './validate-lifecycle.js';

const COMPILERS = {
  handoff: () => handoffValidators('same'),
  lifecycle: () => lifecycleValidator('same'),
  'staged-context': stagedContextValidator,
  outcome: handoffOutcomeValidator,
} as const;

/** The kinds of message whose validators a service may compile at start. */
export type ValidatedKind = keyof typeof COMPILERS;

/**
 * Compiles the validators of the current protocol version for `kinds` now, instead of at the
 * first message of each kind: Ajv takes 0.2-1 s of CPU per kind on a busy 2-core machine, which
 * otherwise lands on the service's first messages (an agent's first negotiation waited about a
 * second for it). A service calls this before it reports started; a newer minor version's lenient
 * validators are still compiled when such a message first comes.
 */
export function compileValidators(kinds: readonly ValidatedKind[]): void {
  for (const kind of kinds) COMPILERS[kind]();
}
