import { BatonError } from '@baton/errors';
import { DEFAULT_INLINE_MAX_BYTES, MAX_INLINE_MAX_BYTES, integerSetting } from '@baton/runtime';
import type { NegotiationOptions } from '../agent-definition.js';

export const DEFAULT_ESTIMATED_HANDOFF_SECONDS = 5;

/** NegotiationOptions with the environment applied and the defaults filled in. */
export interface NegotiationConfig {
  /** Infinity when unlimited. */
  capacity: number;
  estimatedHandoffSeconds: number;
  inlineMaxBytes: number;
}

type Env = Record<string, string | undefined>;

/** A definition's option, its default when absent; a value `valid` refuses stops the agent at start. */
function option(
  value: number | undefined,
  name: keyof NegotiationOptions,
  fallback: number,
  valid: (value: number) => boolean,
): number {
  if (value === undefined) return fallback;
  if (!valid(value)) {
    throw new BatonError('CONFIG_INVALID', `negotiation.${name} is out of range: ${value}`, {
      path: `/negotiation/${name}`,
    });
  }
  return value;
}

const isCount = (value: number) => Number.isSafeInteger(value) && value >= 0;

/**
 * The agent's negotiation settings: BATON_AGENT_CAPACITY and BATON_CONTEXT_INLINE_MAX_BYTES win
 * over the definition's options. A bad value stops the agent at start with CONFIG_INVALID.
 */
export function loadNegotiationConfig(
  options: NegotiationOptions = {},
  env: Env = process.env,
): Readonly<NegotiationConfig> {
  const capacity = option(options.capacity, 'capacity', Number.POSITIVE_INFINITY, isCount);
  const inlineMaxBytes = option(
    options.inlineMaxBytes,
    'inlineMaxBytes',
    DEFAULT_INLINE_MAX_BYTES,
    (value) => isCount(value) && value <= MAX_INLINE_MAX_BYTES,
  );
  return Object.freeze({
    capacity: integerSetting(env, 'BATON_AGENT_CAPACITY', capacity, 0),
    estimatedHandoffSeconds: option(
      options.estimatedHandoffSeconds,
      'estimatedHandoffSeconds',
      DEFAULT_ESTIMATED_HANDOFF_SECONDS,
      (value) => Number.isFinite(value) && value >= 0,
    ),
    inlineMaxBytes: integerSetting(env, 'BATON_CONTEXT_INLINE_MAX_BYTES', inlineMaxBytes, 0, MAX_INLINE_MAX_BYTES),
  });
}
