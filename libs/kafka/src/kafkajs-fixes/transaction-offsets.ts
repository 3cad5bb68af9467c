import { replaceBeforeKafkajsLoads, type ModuleReplacement } from './module-replacement.js';

/**
 * kafkajs 2.2.4's `transaction.sendOffsets` sends AddOffsetsToTxn once, outside the retrier its
 * other transactional requests go through (src/producer/eosManager/index.js), so a transaction that
 * begins with its offsets, right after the producer's previous commit, fails when the coordinator
 * answers CONCURRENT_TRANSACTIONS: it is still writing that commit's markers, a few milliseconds,
 * and expects the client to ask again (the Java client backs off 20 ms and does). Upstream:
 * tulios/kafkajs#430 ("In KafkaJs it is not covered with internal retry mechanism ... on sending
 * offsets"); kafkajs has no release after 2.2.4.
 *
 * Baton's consumers begin such a transaction whenever a batch holds only duplicates (nothing to
 * write, only the offset to commit): the partition was then taken up again from its committed
 * offset, logged as `transaction failed: The producer attempted to update a transaction while
 * another concurrent operation on the same transaction was ongoing`. The replacement below retries
 * sendOffsets on that answer with the producer's own retry settings; nothing was added to the
 * transaction by the refused request, so asking again is what the coordinator expects.
 */
const MODULE = 'kafkajs/src/producer/eosManager/index.js';
const RETRY_MODULE = 'kafkajs/src/retry/index.js';
/** The modules that take the eosManager factory when they load: kafkajs's producer. */
const TAKERS = ['kafkajs/src/producer/index.js'];

interface RetryOptions {
  retries?: number;
  initialRetryTime?: number;
  maxRetryTime?: number;
}

type Retrier = <T>(attempt: (bail: (error: Error) => void) => Promise<T>) => Promise<T>;

interface EosManagerOptions {
  cluster: { retry?: RetryOptions };
}

interface EosManager {
  sendOffsets(offsets: unknown): Promise<unknown>;
}

/** Whether `error` is the coordinator's CONCURRENT_TRANSACTIONS answer (kafkajs's protocol error type). */
export function isConcurrentTransactions(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === 'CONCURRENT_TRANSACTIONS';
}

/**
 * An eosManager factory that makes what `original` makes, its sendOffsets retried on
 * CONCURRENT_TRANSACTIONS by `createRetry(cluster.retry)`; every other failure as before.
 */
export function retryingOffsets(
  original: (options: EosManagerOptions) => EosManager,
  createRetry: (options?: RetryOptions) => Retrier,
): (options: EosManagerOptions) => EosManager {
  return (options) => {
    const manager = original(options);
    const sendOffsets = manager.sendOffsets.bind(manager);
    const retrier = createRetry(options.cluster.retry);
    manager.sendOffsets = (offsets) =>
      retrier(async (bail) => {
        try {
          return await sendOffsets(offsets);
        } catch (error) {
          if (isConcurrentTransactions(error)) throw error;
          bail(error as Error);
          return undefined;
        }
      });
    return manager;
  };
}

let outcome: ModuleReplacement | undefined;

/** Puts the factory in kafkajs's place, before kafkajs's producer loads. Idempotent. */
export function patchTransactionOffsets(): ModuleReplacement {
  outcome ??= replaceBeforeKafkajsLoads('transaction offsets', TAKERS, (original) => ({
    [MODULE]: retryingOffsets(
      original(MODULE) as (options: EosManagerOptions) => EosManager,
      original(RETRY_MODULE) as (options?: RetryOptions) => Retrier,
    ),
  }));
  return outcome;
}

patchTransactionOffsets();
