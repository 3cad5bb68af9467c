import type { OutputRecord, TopicNames } from '@baton/kafka';
import {
  deliversToReceiver,
  dutyMessage,
  dutyOf,
  dutyRecords,
  type Duty,
  type NegotiationFold,
  type NegotiationSettings,
} from '@baton/negotiation';
import type { Counter, Logger } from '@baton/runtime';
import type { TaskBook } from '@baton/task-tracking';
import type { LifecycleCodec } from '@baton/wire';

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
 * folded state, written back to the events topic as its `dutyMessage`, whose id derives from its
 * cause: trackers that decide the same thing write one message, and a restarted tracker that folds
 * its own decision back never takes it twice. This class is the timing and the sending.
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
    const message = dutyMessage(taskId, fold, duty);
    if (message === undefined || this.inFlight.has(message.message_id)) return;
    this.inFlight.add(message.message_id);
    const records = dutyRecords(this.options.codec, this.options.topics, duty, message);
    const delivered = deliversToReceiver(duty);
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
}
