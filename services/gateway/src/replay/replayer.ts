import { randomUUID } from 'node:crypto';
import { BatonError, hasErrorCode } from '@baton/errors';
import type { AuditAction, AuditEntry, ReplayResult } from '@baton/gateway-api';
import { readDeadLetterFacts, type ConsumedRecord, type TransactionalSender } from '@baton/kafka';
import { VOUCH_HEADER } from '@baton/message-signing';
import type { HandoffCodec } from '@baton/wire';
import { auditRecord } from '../audit/audit-trail.js';
import { deadLetterId } from '../dead-letters/dead-letter-store.js';
import { replayedRecord } from './replay-record.js';
import { inboxVouch, judgeReplay, replayCandidate, type ReplayTrust } from './replay-trust.js';

export interface ReplayRequest {
  actor: string;
  reason: string;
  /** Default: the topic the dead letter came from. */
  targetTopic?: string;
  newMessageId?: boolean;
  jobId?: string;
  /**
   * Send it even when the trust gate refuses it: only for a principal with the trust-override
   * role, which the route checks; the audit entry names the refusal overridden.
   */
  overrideTrust?: boolean;
}

export type ReplayOutcome = 'replayed' | 'refused' | 'failed';

export interface ReplayerOptions {
  sender: TransactionalSender;
  codec: HandoffCodec;
  auditTopic: string;
  /** Whether a topic other than the dead letter's source may be a replay's target. */
  isAllowedTarget(topic: string): boolean;
  /** What every replay is judged by before anything is written (see judgeReplay). */
  trust: ReplayTrust;
  /** Told of every replay tried, for metrics. */
  observe?(outcome: ReplayOutcome): void;
  now?: () => Date;
}

/**
 * Replays dead letters. The replayed record and its audit entry are written in one transaction,
 * so a replay that happened is always in the audit trail, and an entry never names one that did not.
 * Every replay, single or of a job, is judged by the trust gate first: one it refuses is not
 * written, and the caller gets REPLAY_TRUST_REFUSED.
 */
export class Replayer {
  constructor(private readonly options: ReplayerOptions) {}

  /** Where a dead letter would go; throws REPLAY_TARGET_NOT_ALLOWED for a target outside the list. */
  targetOf(letter: ConsumedRecord, targetTopic: string | undefined): string {
    const source = readDeadLetterFacts(letter.headers)?.topic;
    if (targetTopic === undefined || targetTopic === source) {
      if (source === undefined) {
        throw new BatonError('REPLAY_TARGET_NOT_ALLOWED', `${deadLetterId(letter)} names no source topic`, {
          path: '/target_topic',
        });
      }
      return source;
    }
    if (!this.options.isAllowedTarget(targetTopic)) {
      throw new BatonError('REPLAY_TARGET_NOT_ALLOWED', `replays may not go to "${targetTopic}"`, {
        path: '/target_topic',
      });
    }
    return targetTopic;
  }

  async replay(letter: ConsumedRecord, request: ReplayRequest): Promise<ReplayResult> {
    try {
      const result = await this.replayNow(letter, request);
      this.options.observe?.('replayed');
      return result;
    } catch (error) {
      this.options.observe?.(hasErrorCode(error, 'REPLAY_TRUST_REFUSED') ? 'refused' : 'failed');
      throw error;
    }
  }

  private async replayNow(letter: ConsumedRecord, request: ReplayRequest): Promise<ReplayResult> {
    const target = this.targetOf(letter, request.targetTopic);
    const candidate = await replayCandidate(letter, target, (bytes) => this.options.codec.decodeUnchecked(bytes));
    const refusal = judgeReplay(candidate, this.options.trust);
    if (refusal !== undefined && !request.overrideTrust) throw refusal;
    const id = deadLetterId(letter);
    const auditId = randomUUID();
    const { record, messageId } = await replayedRecord(
      letter,
      target,
      { replayId: auditId, actor: request.actor, from: `${letter.topic}/${id}` },
      { newMessageId: request.newMessageId ?? false, codec: this.options.codec },
    );
    // Only what the gate let through: an overridden refusal reaches its agent unvouched, to be checked there.
    const vouch =
      refusal === undefined ? inboxVouch(this.options.trust, target, record.value as Buffer | null) : undefined;
    if (vouch !== undefined) record.headers = { ...record.headers, [VOUCH_HEADER]: vouch };
    const entry: AuditEntry = {
      ...this.entry(auditId, 'replay', request.actor, request.reason, letter.topic),
      id,
      ...(request.jobId === undefined ? {} : { job_id: request.jobId }),
      ...(messageId === undefined ? {} : { message_id: messageId }),
      ...(request.newMessageId && letter.headers.ce_id !== undefined
        ? { original_message_id: letter.headers.ce_id }
        : {}),
      new_message_id: request.newMessageId ?? false,
      target_topic: target,
      ...(refusal === undefined ? {} : { trust_overridden: refusal.message }),
    };
    const [sent] = await this.options.sender.send([record, auditRecord(this.options.auditTopic, entry)]);
    return {
      audit_id: auditId,
      dlq_topic: letter.topic,
      id,
      target_topic: target,
      ...(messageId === undefined ? {} : { message_id: messageId }),
      partition: sent?.partition ?? -1,
      offset: sent?.offset ?? '-1',
    };
  }

  /** Records an action on a replay job (start, pause, resume, stop, complete). */
  async record(
    action: AuditAction,
    details: { actor: string; reason: string; dlqTopic: string; jobId: string; outcome: string },
  ): Promise<AuditEntry> {
    const entry: AuditEntry = {
      ...this.entry(randomUUID(), action, details.actor, details.reason, details.dlqTopic),
      job_id: details.jobId,
      outcome: details.outcome,
    };
    await this.options.sender.send([auditRecord(this.options.auditTopic, entry)]);
    return entry;
  }

  private entry(auditId: string, action: AuditAction, actor: string, reason: string, dlqTopic: string): AuditEntry {
    return {
      audit_id: auditId,
      time: (this.options.now?.() ?? new Date()).toISOString(),
      actor,
      action,
      reason,
      dlq_topic: dlqTopic,
      outcome: 'sent',
    };
  }
}
