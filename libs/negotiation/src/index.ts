/**
 * The negotiated handoff's runtime: the sender opens it, the receiver decides and takes the context
 * over, and the tracker runs the sender's duties, each side moving by the handoff state machine.
 * The messages' format (types, JSON Schemas, validation, builders) is @baton/protocol's; the
 * context store it puts large contexts in is @baton/kafka's.
 */

// The handoff state machine: each side's states, and the moves the protocol allows.
export {
  HANDOFF_SIDES,
  SENDER_STATES,
  RECEIVER_STATES,
  HANDOFF_EVENTS,
  TERMINAL_STATES,
  transition,
  isTerminal,
  receivedEvent,
  type HandoffSide,
  type SenderState,
  type ReceiverState,
  type HandoffState,
  type StateOf,
  type HandoffEvent,
  type IllegalTransition,
  type TransitionResult,
} from './handoff-state-machine.js';

// Lifecycle messages and staged contexts as Kafka records.
export { lifecycleRecord, stagedContextRecord, LIFECYCLE_EVENT_TYPE_PREFIX } from './lifecycle-record.js';

// The sender opens a negotiation: the context it offers, inline or stored, and the records that open it.
export {
  HANDOFF_CONTEXT_SCHEMA_VERSION,
  CONTEXT_CONTENT_TYPE,
  DEFAULT_INLINE_MAX_BYTES,
  MAX_INLINE_MAX_BYTES,
  chooseContextTransfer,
  contextTransferPayload,
  handoffContextData,
  type ContextSink,
  type ContextTransferChoice,
  type HandoffContextData,
} from './context-offer.js';
export {
  handoffTerms,
  negotiationOpening,
  openNegotiation,
  openingRecords,
  soleRecipient,
  type NegotiationOpener,
  type NegotiationOpening,
  type RequestTerms,
} from './negotiation-opening.js';
export { controlTopicCreator, type ControlTopicsOptions } from './control-topics.js';

// The receiver: its settings, its decision on a request, and taking a transferred context over.
export {
  loadNegotiationConfig,
  DEFAULT_ESTIMATED_HANDOFF_SECONDS,
  type NegotiationConfig,
  type NegotiationOptions,
} from './negotiation-config.js';
export {
  decideOnRequest,
  isAgentOfType,
  refusalOf,
  type CapabilityCard,
  type RequestCircumstances,
  type RequestDecision,
} from './decide-on-request.js';
export { handoffOfContext, type ContextSource } from './context-takeover.js';
export {
  CLAIM_CHECK_HEADER,
  INBOX_RECORD_MAX_BYTES,
  claimCheckRecord,
  resolveClaimCheck,
} from './inbox-claim-check.js';
export { controlProcessor, type ControlMessage, type ControlProcessorOptions } from './control-processor.js';

// The sender's side the tracker runs: the fold of a negotiation's messages, its duties, and their messages.
export {
  NEGOTIATION_ERRORS,
  NEGOTIATION_OUTCOMES,
  NegotiationFold,
  nextCandidate,
  type CandidateSource,
  type HandoffAttempt,
  type Negotiation,
  type NegotiationOutcome,
  type RefusedMessage,
} from './negotiation-fold.js';
export { dutyOf, type Duty, type DutyCheck, type NegotiationSettings } from './negotiation-duty.js';
export { TRACKER_AGENT_ID, deliversToReceiver, dutyMessage, dutyRecords } from './duty-message.js';
