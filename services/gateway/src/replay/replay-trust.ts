import { BatonError, isBatonError } from '@baton/errors';
import { readDeadLetterFacts, type ConsumedRecord } from '@baton/kafka';
import {
  digestOf,
  signingStage,
  VerificationSeals,
  type MessageKind,
  type SigningKey,
  type TrustStore,
} from '@baton/message-signing';
import { senderMay, type SenderPolicy } from '@baton/routing';
import { recordFacts } from '@baton/runtime';
import type { ReadFacts } from '@baton/wire';

/**
 * The failure codes that mean a service refused a message for who sent it or what it may send,
 * not for what it holds: a replay is about fixing what failed downstream, and none of these is
 * fixed by sending the same claim again. PERSONAL_DATA_UNENCRYPTED is among them because a
 * handoff whose personal fields travelled in clear was refused to keep them out of the log.
 */
export const TRUST_REFUSAL_CODES: ReadonlySet<string> = new Set([
  'SIGNATURE_MISSING',
  'SIGNATURE_INVALID',
  'SIGNING_KEY_UNKNOWN',
  'SENDER_MISMATCH',
  'NOT_AUTHORIZED',
  'PERSONAL_DATA_UNENCRYPTED',
]);

/** What the gateway judges a replay by; each part left out is a check the fleet does not make either. */
export interface ReplayTrust {
  /** Present when the gateway runs with BATON_SIGNATURES warn or required: every replay's signature or seal is verified. */
  trustStore?: TrustStore;
  /** The gateway's key: a handoff its sender sealed rather than signed is checked by the seal for it. */
  signingKey?: SigningKey;
  /** The router's sender policy (AUTHORIZATION_POLICY); absent: every sender may send anything, as for the router. */
  policy?: SenderPolicy;
  /** The agent whose inbox `topic` is; undefined for any other topic. */
  inboxAgentOf(topic: string): string | undefined;
}

/** A dead letter as the gate sees it: its recorded failure and its decoded value (undefined: none or undecodable). */
export interface ReplayCandidate {
  recordedCode: string | undefined;
  recordedMessage: string;
  /** The value, decoded without checks; an error when it cannot be decoded. */
  message: Record<string, unknown> | BatonError | undefined;
  target: string;
  /** The dead letter's value and original headers: a sender's seal is in them. */
  facts?: ReadFacts;
}

function refused(reasonCode: string, reason: string, path: string | undefined): BatonError {
  return new BatonError(
    'REPLAY_TRUST_REFUSED',
    `replay refused (${reasonCode}): ${reason}; a replay never turns a message refused for who sent it into a processed one`,
    { ...(path === undefined ? {} : { path }), details: { reason_code: reasonCode } },
  );
}

function kindOf(message: Record<string, unknown>): MessageKind {
  return typeof message.metadata === 'object' && message.metadata !== null ? 'handoff' : 'lifecycle';
}

/**
 * Judges a replay before anything is written: undefined when it may go, else the
 * REPLAY_TRUST_REFUSED error naming why (`details.reason_code`). In order: the failure the dead
 * letter records is a trust failure; the message's own signature, or its sender's seal for the
 * gateway, does not verify (the dead-letter headers are not signed, so the recorded failure is not
 * taken on trust); its verified sender may not send
 * its handoff_type to the agent whose inbox is the target.
 */
export function judgeReplay(candidate: ReplayCandidate, trust: ReplayTrust): BatonError | undefined {
  const { recordedCode, message } = candidate;
  if (recordedCode !== undefined && TRUST_REFUSAL_CODES.has(recordedCode)) {
    return refused(
      recordedCode,
      `the dead letter was refused with ${recordedCode}: ${candidate.recordedMessage}`,
      undefined,
    );
  }
  if (isBatonError(message)) {
    if (trust.trustStore === undefined && trust.policy === undefined) return undefined;
    return refused(
      message.code,
      `the dead letter cannot be decoded to check who sent it: ${message.message}`,
      message.path,
    );
  }
  if (message === undefined) return undefined;
  let sender: unknown;
  if (trust.trustStore !== undefined) {
    const { trustStore, signingKey } = trust;
    // Facts of its own, so that what the stage learns (the verified sender) stays with this judgement.
    const read = candidate.facts;
    const facts: ReadFacts | undefined = read && { value: read.value, header: (name) => read.header(name) };
    try {
      signingStage({ kind: kindOf(message), mode: 'required', signingKey, trustStore }).open(message, facts);
      sender = facts?.verified?.senderId;
    } catch (error) {
      if (!isBatonError(error)) throw error;
      return refused(error.code, error.message, error.path);
    }
  }
  const agent = trust.inboxAgentOf(candidate.target);
  if (trust.policy === undefined || agent === undefined || kindOf(message) !== 'handoff') return undefined;
  const metadata = message.metadata as Record<string, unknown>;
  sender ??= metadata.sender_id;
  const handoffType = (message.payload as Record<string, unknown> | undefined)?.handoff_type;
  if (
    typeof sender === 'string' &&
    typeof handoffType === 'string' &&
    senderMay(trust.policy, sender, handoffType, agent)
  ) {
    return undefined;
  }
  return refused(
    'NOT_AUTHORIZED',
    `sender "${String(sender)}" may not send ${String(handoffType)} to "${agent}": no rule of the sender policy allows it`,
    '/metadata/sender_id',
  );
}

/**
 * The gateway's vouch (the `baton.vouch` header's value) for the agent whose inbox a replay the gate
 * let through goes to: it verified the dead letter's sender as the router would have, and says so
 * to that agent, which a sender's seals (made for the router and the gateway) do not reach.
 * Undefined for another target, without the gateway's key, or when it holds no key of the agent.
 */
export function inboxVouch(trust: ReplayTrust, target: string, value: Buffer | null): string | undefined {
  const agent = trust.inboxAgentOf(target);
  if (agent === undefined || value === null || trust.trustStore === undefined || trust.signingKey === undefined)
    return undefined;
  return new VerificationSeals(trust.signingKey, trust.trustStore).seal(digestOf(value), agent);
}

/** The gate's view of a dead letter: `decode` reads its value as it travels, without checks. */
export async function replayCandidate(
  letter: ConsumedRecord,
  target: string,
  decode: (bytes: Buffer) => Promise<unknown>,
): Promise<ReplayCandidate> {
  const facts = readDeadLetterFacts(letter.headers);
  let message: ReplayCandidate['message'];
  if (letter.value !== null) {
    try {
      message = (await decode(letter.value)) as Record<string, unknown>;
    } catch (error) {
      // A registry that does not answer says nothing about the message: the replay fails, to be tried again.
      if (!isBatonError(error) || error.retriable) throw error;
      message = error;
    }
  }
  return {
    recordedCode: facts?.errorCode,
    recordedMessage: facts?.errorMessage ?? '',
    message,
    target,
    facts: letter.value === null ? undefined : recordFacts(letter),
  };
}
