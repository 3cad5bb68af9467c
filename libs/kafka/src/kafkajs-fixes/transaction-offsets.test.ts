import { describe, expect, it } from 'vitest';
import { createKafka } from '../create-kafka.js';
import { kafkajsOriginal } from './kafkajs-original.test-helper.js';
import { kafkajsModuleExports } from './module-replacement.js';
import { isConcurrentTransactions, patchTransactionOffsets, retryingOffsets } from './transaction-offsets.js';

type Retrier = Parameters<typeof retryingOffsets>[1];
const createRetry = kafkajsOriginal<Retrier>('kafkajs/src/retry/index.js');
const RETRY = { retries: 5, initialRetryTime: 1, maxRetryTime: 5 };

/** A coordinator's answer, as kafkajs's KafkaJSProtocolError carries it. */
function protocolError(type: string): Error {
  return Object.assign(new Error(type), { name: 'KafkaJSProtocolError', type, retriable: true });
}

/** An eosManager whose sendOffsets fails with `errors` in turn, then succeeds; and its calls. */
function eosManagerFailing(errors: Error[]) {
  const calls: unknown[] = [];
  const factory = () => ({
    async sendOffsets(offsets: unknown) {
      calls.push(offsets);
      const error = errors.shift();
      if (error) throw error;
      return 'sent';
    },
  });
  return { calls, manager: retryingOffsets(factory, createRetry)({ cluster: { retry: RETRY } }) };
}

describe("kafkajs's transaction.sendOffsets, fixed", () => {
  it('asks again while the coordinator answers CONCURRENT_TRANSACTIONS, then sends the offsets once', async () => {
    const { calls, manager } = eosManagerFailing([
      protocolError('CONCURRENT_TRANSACTIONS'),
      protocolError('CONCURRENT_TRANSACTIONS'),
    ]);
    await expect(manager.sendOffsets({ consumerGroupId: 'g' })).resolves.toBe('sent');
    expect(calls).toEqual([{ consumerGroupId: 'g' }, { consumerGroupId: 'g' }, { consumerGroupId: 'g' }]);
  });

  it('fails at once, with the error as it was, on any other answer', async () => {
    const fenced = protocolError('INVALID_PRODUCER_EPOCH');
    const { calls, manager } = eosManagerFailing([fenced]);
    await expect(manager.sendOffsets({})).rejects.toBe(fenced);
    expect(calls).toHaveLength(1);
  });

  it('gives up after the producer’s retries, as kafkajs’s other requests do', async () => {
    const { calls, manager } = eosManagerFailing(
      Array.from({ length: 10 }, () => protocolError('CONCURRENT_TRANSACTIONS')),
    );
    await expect(manager.sendOffsets({})).rejects.toMatchObject({ name: 'KafkaJSNumberOfRetriesExceeded' });
    expect(calls).toHaveLength(RETRY.retries + 1);
  });

  it('is in kafkajs’s place once @baton/kafka is loaded', () => {
    createKafka({ brokers: ['localhost:9092'], clientId: 'patch-check' });
    expect(patchTransactionOffsets().status).toBe('applied');
    const original = kafkajsOriginal<unknown>('kafkajs/src/producer/eosManager/index.js');
    expect(kafkajsModuleExports('kafkajs/src/producer/eosManager/index.js')).not.toBe(original);
    expect(isConcurrentTransactions(protocolError('CONCURRENT_TRANSACTIONS'))).toBe(true);
    expect(isConcurrentTransactions(new Error('CONCURRENT_TRANSACTIONS'))).toBe(false);
  });
});
