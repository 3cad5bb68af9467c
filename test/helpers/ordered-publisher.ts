import { createKafka, RecordProducer, type OutputRecord } from '@baton/kafka';
import { uniqueName } from './unique-name.js';

export interface OrderedPublisherOptions {
  brokers: string[];
  topic: string;
  records: readonly OutputRecord[];
  /** @default 100 */
  batchSize?: number;
  /** Resolves true once the records from `next` on may be sent (flow control), false to stop publishing. */
  waitForRoom(next: number): Promise<boolean>;
  /** A failed batch is sent again until this time (epoch ms), then the failure is passed on. */
  retryUntil: number;
  /** Told of each batch that failed and is sent again. */
  onRetry?(line: string): void;
}

/** Publishing under way: how far it got, and the promise of its end. */
export interface OrderedPublisher {
  /** Records the broker acknowledged (or a gateway answered 202 for). */
  readonly sent: number;
  /** Sends made again after one failed (a broker outage, say): of a batch, or of a POST to a gateway. */
  readonly resends: number;
  /** Settles when every record was sent, or publishing stopped; rejects once retrying is past its time. */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

/**
 * Publishes `records` in order with an idempotent producer (acks all), one batch at a time and
 * each awaited, so the records of one key (one task) reach their partition in the order given.
 * A batch that fails is sent again, by the new producer a RecordProducer makes after a failure,
 * whose fresh sequence numbers the broker accepts; a batch the broker had in fact written then appears twice, in the same order, which a
 * consumer deduplicating by message id must absorb.
 */
/** How long `close` waits for a send under way. */
const CLOSE_GRACE_MS = 60_000;

export function publishInOrder(options: OrderedPublisherOptions): OrderedPublisher {
  // Quiet: a failed send is told through onRetry, and sent again.
  const kafka = createKafka({
    brokers: options.brokers,
    clientId: uniqueName('ordered-publisher'),
    logLevel: 'nothing',
  });
  const batchSize = options.batchSize ?? 100;
  const producer = new RecordProducer(kafka);
  let sent = 0;
  let resends = 0;
  let closing = false;
  const done = (async () => {
    for (let start = 0; start < options.records.length; start += batchSize) {
      if (!(await options.waitForRoom(start))) return;
      const messages = options.records.slice(start, start + batchSize);
      for (;;) {
        try {
          await producer.send(messages.map((record) => ({ ...record, topic: options.topic })));
          break;
        } catch (error) {
          if (closing || Date.now() > options.retryUntil) throw error;
          resends += 1;
          options.onRetry?.(`publishing records ${start}+ failed, sending them again: ${(error as Error).message}`);
        }
      }
      sent = start + messages.length;
    }
  })();
  return {
    get sent() {
      return sent;
    },
    get resends() {
      return resends;
    },
    done,
    close: async () => {
      closing = true;
      // A send under way is waited for, at most its producer's own request timeout and retries: a
      // run that ends early (a stall, a failure) must still stop, and say what it found.
      const sending = await Promise.race([
        done.then(
          () => false,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS, true).unref()),
      ]);
      if (sending) options.onRetry?.(`a send was still under way ${CLOSE_GRACE_MS / 1000} s after the run ended`);
      await producer.disconnect().catch(() => undefined);
    },
  };
}
