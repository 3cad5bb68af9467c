import type { HandoffMessage, Immutable } from '@baton/protocol';

/** A handoff as a service reads it: the message, not to be changed. */
export type Handoff = Immutable<HandoffMessage>;
