import type { OutputRecord, TopicNames } from '@baton/kafka';
import {
  buildLifecycleMessage,
  nameBasedUuid,
  type ErrorNotificationPayload,
  type Immutable,
  type LifecycleMessage,
} from '@baton/protocol';
import { lifecycleRecord, type Counter, type Logger } from '@baton/runtime';
import {
  dutyOf,
  NEGOTIATION_ERRORS,
  type Duty,
  type NegotiationFold,
  type NegotiationSettings,
  type TaskBook,
} from '@baton/task-tracking';
import type { LifecycleCodec } from '@baton/wire';

/** The sender_id and origin_agent_id of what the tracker itself reports. */
export const TRACKER_AGENT_ID = 'baton_tracker';

/** setTimeout's longest delay; a later deadline is checked again when this one passes. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How soon a duty whose send failed is tried again. */
const RESEND_DELAY_MS = 1_000;

export interface NegotiationCoordinatorOptions {
  book: TaskBook;
  topics: TopicNames;
  codec: LifecycleCodec;
  settings: NegotiationSettings;
  /** Writes records atomically (a Kafka transaction). */
  send(records: OutputRecord[]): Promise<unknown>;
  /** Makes sure an agent's control topic exists: a receiver's agent may not have started yet. */
  ensureControlTopic(agentId: string): Promise<void>;
  /** Counts what was sent, by duty. */
  duties: Counter<'duty'>;
  logger: Logger;
  now?: () => number;
}

/**
 * Runs the sender's side of every negotiated handoff on its behalf: sends the staged context to a
 * receiver that accepted, times out receivers that stay silent, asks the next candidate of the
 * failure_handling_strategy, and ends a task FAILED or EXPIRED. Every decision is `dutyOf` the
 * folded state, written back to the events topic under an id derived from its cause: trackers
 * that decide the same thing write one message (the copies collapse on message_id), and a
 * restarted tracker that folds its own decision back never takes it twice.
 */
export class NegotiationCoordinator {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Ids of messages sent and not yet read back: not sent again meanwhile. */
  private readonly inFlight = new Set<string>();
  private active = false;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: NegotiationCoordinatorOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts acting, once the book has caught up with the topic: overdue duties are done now. */
  activate(): void {
    this.active = true;
    for (const taskId of this.options.book.tasksNegotiating()) this.check(taskId);
  }

  /** Called after each record of `taskId` is folded. */
  folded(taskId: string, messageId: string): void {
    this.inFlight.delete(messageId);
    if (this.active) this.check(taskId);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private check(taskId: string): void {
    if (this.closed) return;
    for (const fold of this.options.book.openNegotiationsOf(taskId)) {
      const key = fold.negotiation.negotiation_id;
      clearTimeout(this.timers.get(key));
      this.timers.delete(key);
      const check = dutyOf(fold.negotiation, this.options.settings, this.now());
      if ('due' in check) {
        void this.perform(taskId, fold, check.due);
      } else if (check.dueAt !== undefined) {
        const delay = Math.min(Math.max(check.dueAt - this.now(), 0), MAX_TIMER_MS);
        this.timers.set(
          key,
          setTimeout(() => {
            this.timers.delete(key);
            this.check(taskId);
          }, delay),
        );
      }
    }
  }

  private async perform(taskId: string, fold: NegotiationFold, duty: Duty): Promise<void> {
    const message = this.messageFor(taskId, fold, duty);
    if (message === undefined || this.inFlight.has(message.message_id)) return;
    this.inFlight.add(message.message_id);
    const { codec, topics } = this.options;
    const records = [lifecycleRecord(codec, topics.events, message)];
    // What the receiver must act on is also delivered to it.
    const delivered = duty.kind === 'send-context' || duty.kind === 'request';
    if (delivered) records.push(lifecycleRecord(codec, topics.agentControl(message.receiver_id), message));
    const log = {
      task_id: taskId,
      message_id: message.message_id,
      negotiation_id: fold.negotiation.negotiation_id,
      duty: duty.kind,
      receiver: message.receiver_id,
      ...('reason' in duty ? { reason: duty.reason } : {}),
    };
    try {
      if (delivered) await this.options.ensureControlTopic(message.receiver_id);
      await this.options.send(records);
      this.options.duties.inc({ duty: duty.kind });
      this.options.logger.info({ event: 'negotiation.duty_done', ...log }, `${duty.kind} sent`);
    } catch (error) {
      this.inFlight.delete(message.message_id);
      this.options.logger.warn(
        { event: 'negotiation.duty_failed', ...log, err: error },
        `${duty.kind} not sent; retrying`,
      );
      if (!this.closed) setTimeout(() => this.check(taskId), RESEND_DELAY_MS).unref();
    }
  }

  /** The message that carries out `duty`, under an id derived from what caused it. */
  private messageFor(taskId: string, fold: NegotiationFold, duty: Duty): Immutable<LifecycleMessage> | undefined {
    const negotiation = fold.negotiation;
    const id = (cause: string) => () => nameBasedUuid(cause);
    switch (duty.kind) {
      case 'send-context': {
        const context = fold.stagedContext;
        if (context === undefined) return undefined;
        return buildLifecycleMessage(
          'TaskContextTransfer',
          {
            sender_id: negotiation.sender_id,
            receiver_id: duty.attempt.receiver,
            task_id: taskId,
            correlation_id: duty.attempt.request_id,
            payload: structuredClone(context) as LifecycleMessage<'TaskContextTransfer'>['payload'],
          },
          { newId: id(`${duty.attempt.request_id}/context`) },
        );
      }
      case 'request': {
        const first = fold.firstRequest;
        if (first === undefined) return undefined;
        return buildLifecycleMessage(
          'HandoffRequest',
          {
            sender_id: negotiation.sender_id,
            receiver_id: duty.receiver,
            task_id: taskId,
            correlation_id: negotiation.negotiation_id,
            payload: {
              reason: first.reason,
              desired_agent_type: first.desired_agent_type,
              priority: first.priority,
              initial_context_summary: first.initial_context_summary,
            },
          },
          { newId: id(`${negotiation.negotiation_id}/request/${negotiation.attempts.length}`) },
        );
      }
      case 'time-out':
        return this.notification(taskId, negotiation.sender_id, duty.attempt.request_id, {
          error_code: NEGOTIATION_ERRORS.timeout,
          error_message: duty.reason,
          severity: 'WARNING',
          origin_agent_id: TRACKER_AGENT_ID,
        });
      case 'fail':
        return this.notification(taskId, negotiation.sender_id, negotiation.negotiation_id, {
          error_code: NEGOTIATION_ERRORS.failed,
          error_message: duty.reason,
          severity: 'CRITICAL',
          origin_agent_id: TRACKER_AGENT_ID,
        });
      case 'expire':
        return this.notification(taskId, negotiation.sender_id, negotiation.negotiation_id, {
          error_code: NEGOTIATION_ERRORS.expired,
          error_message: duty.reason,
          severity: 'CRITICAL',
          origin_agent_id: TRACKER_AGENT_ID,
        });
    }
  }

  /** An ErrorNotification to the sender about one attempt or the whole negotiation (`correlationId`). */
  private notification(
    taskId: string,
    senderId: string,
    correlationId: string,
    payload: ErrorNotificationPayload,
  ): Immutable<LifecycleMessage> {
    return buildLifecycleMessage(
      'ErrorNotification',
      { sender_id: TRACKER_AGENT_ID, receiver_id: senderId, task_id: taskId, correlation_id: correlationId, payload },
      { newId: () => nameBasedUuid(`${correlationId}/${payload.error_code}`) },
    );
  }
}
