import { kafkajsModuleExports, replaceBeforeKafkajsLoads, type ModuleReplacement } from './module-replacement.js';

/**
 * kafkajs 2.2.4's read_committed consumer can deliver records of aborted transactions. Its
 * filterAbortedMessages (src/consumer/filterAbortedMessages.js) walks a fetched batch against the
 * fetch response's aborted-transaction list as if that list were sorted by first offset, and enters
 * at most one aborted transaction per record. The broker lists them in the order they were
 * aborted, so when a transaction that began earlier was aborted later than another (two producers
 * writing one partition: the router's partitions and the tracker both write the events topic, every
 * agent writes the inbound topic), the earlier one's records pass as committed. Seen in Baton's
 * chaos test: 336 records of one aborted agent transaction read as committed. The Java client sorts
 * the list by first offset first (Fetcher, see apache/kafka KAFKA-4818 and its review:
 * "the entries in the abort index are sorted by abort order, but not necessarily first offset
 * order"); kafkajs has no release after 2.2.4. The replacement below does what the Java client does.
 *
 * batch.js takes the function when it is loaded, so the replacement has to be in Node's module
 * cache first: this module is imported by @baton/kafka before kafkajs itself.
 */
interface FetchedMessage {
  offset: string;
  key?: Buffer | null;
  batchContext: { producerId: string; inTransaction: boolean };
}

interface AbortedTransaction {
  producerId: string;
  firstOffset: string;
}

const ABORT_MARKER_KEY = Buffer.from([0, 0, 0, 0]);

/** A control record whose key says "abort" ends its producer's aborted transaction. */
function isAbortMarker(message: FetchedMessage): boolean {
  return message.key !== null && message.key !== undefined && Buffer.from(message.key).equals(ABORT_MARKER_KEY);
}

/** The records of `messages` that belong to no aborted transaction (control records are left for kafkajs to drop). */
export function filterAbortedMessages({
  messages,
  abortedTransactions,
}: {
  messages: FetchedMessage[];
  abortedTransactions?: AbortedTransaction[] | null;
}): FetchedMessage[] {
  if (!abortedTransactions || abortedTransactions.length === 0) return messages;
  const remaining = [...abortedTransactions].sort((a, b) => {
    const first = BigInt(a.firstOffset);
    const second = BigInt(b.firstOffset);
    return first < second ? -1 : first > second ? 1 : 0;
  });
  const abortedProducers = new Set<string>();
  return messages.filter((message) => {
    const offset = BigInt(message.offset);
    while (remaining.length > 0 && offset >= BigInt((remaining[0] as AbortedTransaction).firstOffset)) {
      abortedProducers.add(String((remaining.shift() as AbortedTransaction).producerId));
    }
    const producerId = String(message.batchContext.producerId);
    if (isAbortMarker(message)) {
      abortedProducers.delete(producerId);
      return true;
    }
    return !(message.batchContext.inTransaction && abortedProducers.has(producerId));
  });
}

const MODULE = 'kafkajs/src/consumer/filterAbortedMessages.js';

export type ReadCommittedPatch = ModuleReplacement;

let outcome: ReadCommittedPatch | undefined;

/** Puts the replacement in kafkajs's place, before kafkajs's consumer (its batch.js) loads. Idempotent. */
export function patchReadCommitted(): ReadCommittedPatch {
  outcome ??= replaceBeforeKafkajsLoads('read_committed filter', ['kafkajs/src/consumer/batch.js'], () => ({
    [MODULE]: filterAbortedMessages,
  }));
  return outcome;
}

/** The function kafkajs's batches filter with, as they will see it. */
export function kafkajsAbortedFilter(): unknown {
  return kafkajsModuleExports(MODULE);
}

patchReadCommitted();
