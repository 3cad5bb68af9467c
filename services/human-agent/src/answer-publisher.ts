import { createProducer, type Kafka, type OutputRecord, type Producer } from '@baton/kafka';

/**
 * Publishes operators' answers: the answer handoff and the tombstone that removes the task from
 * the pending topic, in one transaction, so a task is never both answered and still pending.
 */
export class AnswerPublisher {
  private readonly producer: Producer;
  // A transactional producer runs one transaction at a time, so answers queue up here.
  private lane: Promise<void> = Promise.resolve();
  private closing: Promise<void> | undefined;

  constructor(kafka: Kafka, transactionalId: string) {
    this.producer = createProducer(kafka, { transactionalId, idempotent: true, maxInFlightRequests: 1 });
  }

  connect(): Promise<void> {
    return this.producer.connect();
  }

  publish(answer: OutputRecord, tombstone: { topic: string; key: string }): Promise<void> {
    const run = this.lane.then(() => this.transact(answer, tombstone));
    this.lane = run.catch(() => undefined);
    return run;
  }

  close(): Promise<void> {
    this.closing ??= this.lane.then(() => this.producer.disconnect());
    return this.closing;
  }

  private async transact(answer: OutputRecord, tombstone: { topic: string; key: string }): Promise<void> {
    const transaction = await this.producer.transaction();
    try {
      await transaction.send({
        topic: answer.topic,
        messages: [{ key: answer.key, value: answer.value, headers: answer.headers }],
      });
      await transaction.send({ topic: tombstone.topic, messages: [{ key: tombstone.key, value: null }] });
      await transaction.commit();
    } catch (error) {
      await transaction.abort().catch(() => undefined);
      throw error;
    }
  }
}
