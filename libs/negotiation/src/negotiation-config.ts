import { BatonError } from '@baton/errors';
import { DEFAULT_INLINE_MAX_BYTES, MAX_INLINE_MAX_BYTES } from './context-offer.js';

export const DEFAULT_ESTIMATED_HANDOFF_SECONDS = 5;

/**
 * How an agent takes part in negotiated handoffs. The environment overrides each field
 * it names, so an operator can change one instance's behaviour (drain it, say) without a release.
 */
export interface NegotiationOptions {
  /**
   * Handoffs queued in the agent's inbox (its consumer group's lag) at which it rejects a
   * HandoffRequest as overloaded; 0 rejects every one (a drain). BATON_AGENT_CAPACITY overrides it.
   * @default unlimited
   */
  capacity?: number;
  /** Seconds a HandoffAccept says the handoff will take. @default 5 */
  estimatedHandoffSeconds?: number;
  /**
   * Bytes of JSON up to which `act.requestHandoff` sends the context in the message; a larger one
   * is stored in the contexts topic and sent by reference. BATON_CONTEXT_INLINE_MAX_BYTES overrides it.
   * @default 256 KiB
   */
  inlineMaxBytes?: number;
}

/** NegotiationOptions with the environment applied and the defaults filled in. */
export interface NegotiationConfig {
  /** Infinity when unlimited. */
  capacity: number;
  estimatedHandoffSeconds: number;
  inlineMaxBytes: number;
}

type Env = Record<string, string | undefined>;
type Valid = (value: number) => boolean;

/** `value` when `valid` takes it; otherwise the agent stops at start with CONFIG_INVALID naming its source. */
function inRange(value: number, valid: Valid, name: string, shown: string, path: string): number {
  if (!valid(value)) throw new BatonError('CONFIG_INVALID', `${name} is out of range: ${shown}`, { path });
  return value;
}

/** A definition's option, its default when absent. */
function option(value: number | undefined, name: keyof NegotiationOptions, fallback: number, valid: Valid): number {
  if (value === undefined) return fallback;
  return inRange(value, valid, `negotiation.${name}`, String(value), `/negotiation/${name}`);
}

/** An environment variable, which wins over the option; absent or empty leaves the option. */
function setting(env: Env, name: string, fallback: number, valid: Valid): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  return inRange(Number(raw), valid, name, `"${raw}"`, `/env/${name}`);
}

const isCount: Valid = (value) => Number.isSafeInteger(value) && value >= 0;
const isInlineLimit: Valid = (value) => isCount(value) && value <= MAX_INLINE_MAX_BYTES;

/**
 * The agent's negotiation settings: BATON_AGENT_CAPACITY and BATON_CONTEXT_INLINE_MAX_BYTES win
 * over the definition's options. A bad value stops the agent at start with CONFIG_INVALID.
 */
export function loadNegotiationConfig(
  options: NegotiationOptions = {},
  env: Env = process.env,
): Readonly<NegotiationConfig> {
  const capacity = option(options.capacity, 'capacity', Number.POSITIVE_INFINITY, isCount);
  const inlineMaxBytes = option(options.inlineMaxBytes, 'inlineMaxBytes', DEFAULT_INLINE_MAX_BYTES, isInlineLimit);
  return Object.freeze({
    capacity: setting(env, 'BATON_AGENT_CAPACITY', capacity, isCount),
    estimatedHandoffSeconds: option(
      options.estimatedHandoffSeconds,
      'estimatedHandoffSeconds',
      DEFAULT_ESTIMATED_HANDOFF_SECONDS,
      (value) => Number.isFinite(value) && value >= 0,
    ),
    inlineMaxBytes: setting(env, 'BATON_CONTEXT_INLINE_MAX_BYTES', inlineMaxBytes, isInlineLimit),
  });
}
