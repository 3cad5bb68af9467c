import { TransactionalSender, type KafkaClient, type OutputRecord } from '@baton/kafka';

/**
 * Publishes operators' answers: the answer handoff and the tombstone that removes the task from
 * the pending topic, in one transaction, so a task is never both answered and still pending.
 */
export class AnswerPublisher {
  /** One transaction at a time; answers that arrive meanwhile are committed together in the next, each all or nothing. */
  private readonly sender: TransactionalSender;
  private closing: Promise<void> | undefined;

  constructor(kafka: KafkaClient, transactionalId: string) {
    this.sender = new TransactionalSender(kafka, transactionalId);
  }

  connect(): Promise<void> {
    return this.sender.connect();
  }

  async publish(answer: OutputRecord, tombstone: { topic: string; key: string }): Promise<void> {
    await this.sender.send([answer, { topic: tombstone.topic, key: tombstone.key, value: null }]);
  }

  close(): Promise<void> {
    this.closing ??= this.sender.close();
    return this.closing;
  }
}
