import { replaceBeforeKafkajsLoads, type ModuleReplacement } from './module-replacement.js';
import { PartitionTurns } from './partition-turns.js';

/**
 * kafkajs 2.2.4's producer sends a batch to each partition's leader and, when a broker fails,
 * retries the whole send with the answers kept per broker (src/producer/sendMessages.js): a
 * broker that answered is not asked again. When the failure moved partitions' leadership (a broker
 * killed), the partitions the failed broker led are now led by a broker that answered, so they are
 * never sent and the send resolves as if they were: their records are lost, and in a transaction
 * the commit that follows commits the consumed offsets without them. On three brokers a SIGKILLed
 * leader lost Baton's router 16 of 1,500 handoffs that way, with no error anywhere. Upstream:
 * tulios/kafkajs#1798 ("a response map shared across retries"), open; kafkajs has no release after
 * 2.2.4.
 *
 * The same sender, for an idempotent producer, gives a batch its partition's next sequence number
 * when the request leaves and takes the number back when the request fails (tulios/kafkajs#1050,
 * which fixed concurrent sends taking the same number, #1005, but not their failures). Two sends to
 * one partition at once, as the gateway makes for concurrent POSTs, then share a number: the first
 * request reaches a leader that is killed after writing it, its number is taken back, the second
 * send takes it, and the new leader answers the second batch as a duplicate of the first, with
 * success. Through two gateways on three brokers with leaders killed, 3 of 20,000 handoffs the
 * gateway had acknowledged were never written that way (and others met OUT_OF_ORDER_SEQUENCE_NUMBER).
 * The Java client keeps a failed batch's number until it knows the batch's fate, and starts the
 * numbers anew with a new epoch otherwise (KAFKA-5494, KAFKA-14034).
 *
 * The replacement keeps the answers per partition instead: each attempt sends what is not yet
 * acknowledged to the partitions' leaders of the moment, through kafkajs's own sender for one
 * attempt (its transaction registration, sequence numbers and broker locks unchanged), and a
 * partition that was acknowledged is never sent again, which its idempotent sequence requires. A
 * partition takes one send at a time, from its first attempt to its last retry (partition-turns.ts),
 * so a retry always has its own number; a send that fails for good leaves its partitions
 * unresolved, and the producer refuses them from then on (SequenceUnresolvedError) instead of
 * giving a later batch a number the broker may hold already. The turns cost little: kafkajs sends an
 * idempotent producer's requests to a broker one at a time already.
 */
const MODULE = 'kafkajs/src/producer/sendMessages.js';
const GROUP_MODULE = 'kafkajs/src/producer/groupMessagesPerPartition.js';
/** The module that takes the sendMessages factory when it loads: kafkajs's messageProducer. */
const TAKERS = ['kafkajs/src/producer/messageProducer.js'];

export interface Message {
  partition?: number | null;
  [field: string]: unknown;
}

export interface TopicMessages {
  topic: string;
  messages: Message[];
}

export interface PartitionResponse {
  topicName: string;
  partition: number;
  [field: string]: unknown;
}

interface SendOptions {
  topicMessages: TopicMessages[];
  [option: string]: unknown;
}

type Bail = (error: Error) => void;
type Retrier = <T>(attempt: (bail: Bail, retryCount: number, retryTime: number) => Promise<T>) => Promise<T>;
type Send = (options: SendOptions) => Promise<PartitionResponse[]>;

interface ClusterLike {
  addMultipleTargetTopics(topics: string[]): Promise<unknown>;
  refreshMetadataIfNecessary(): Promise<unknown>;
  refreshMetadata(): Promise<unknown>;
  findTopicPartitionMetadata(topic: string): { partitionId: number; leader: number }[];
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
}

interface SenderOptions {
  cluster: ClusterLike;
  partitioner: (args: { topic: string; partitionMetadata: unknown[]; message: Message }) => number;
  retrier: Retrier;
  [option: string]: unknown;
}

type GroupMessages = (args: {
  topic: string;
  partitionMetadata: unknown[];
  messages: Message[];
  partitioner: SenderOptions['partitioner'];
}) => Record<string, Message[]>;

/** `${topic}\u0000${partition}`: a partition's key among the acknowledged ones. */
const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * What is still to send, grouped by the node that leads each partition now: per leader, the
 * topics' messages with their partition set, so the sender does not choose another.
 */
export function unacknowledgedByLeader(
  byPartition: ReadonlyMap<string, { topic: string; partition: number; messages: Message[] }>,
  acknowledged: ReadonlySet<string>,
  leaderOf: (topic: string, partition: number) => number,
): Map<number, TopicMessages[]> {
  const groups = new Map<number, Map<string, Message[]>>();
  for (const [key, { topic, partition, messages }] of byPartition) {
    if (acknowledged.has(key)) continue;
    const leader = leaderOf(topic, partition);
    const topics = groups.get(leader) ?? new Map<string, Message[]>();
    groups.set(leader, topics);
    const pending = topics.get(topic) ?? [];
    topics.set(topic, pending);
    // The partition the message was grouped into, set on it in place (no copy of every message on
    // the hot path): the partitioner returns a message's own partition first.
    for (const message of messages) {
      message.partition = partition;
      pending.push(message);
    }
  }
  return new Map(
    [...groups].map(([leader, topics]) => [leader, [...topics].map(([topic, messages]) => ({ topic, messages }))]),
  );
}

/** Errors kafkajs's sender bailed on: not to be retried. */
const bailedErrors = new WeakSet<object>();

/** A retrier that runs its attempt once: a bail or a throw rejects, a bail remembered in bailedErrors. */
const once: Retrier = async (attempt) => {
  let bailed: Error | undefined;
  const result = await attempt(
    (error) => {
      bailed = error;
    },
    0,
    0,
  );
  if (bailed !== undefined) {
    bailedErrors.add(bailed);
    throw bailed;
  }
  return result;
};

/** The sendMessages factory of kafkajs with its answers kept per partition, one send at a time per partition (see above). */
export function sendingPerPartition(
  original: (options: SenderOptions) => Send,
  groupMessagesPerPartition: GroupMessages,
): (options: SenderOptions) => Send {
  return (options) => {
    const { cluster, partitioner, retrier } = options;
    const sendOnce = original({ ...options, retrier: once });
    // kafkajs makes one sender per producer: the turns are this producer's.
    const turns = new PartitionTurns();
    return async (sendOptions) => {
      const { topicMessages } = sendOptions;
      await cluster.addMultipleTargetTopics(topicMessages.map(({ topic }) => topic));
      /** Each partition's messages, chosen once, so a retry sends each where it was first meant to go. */
      let byPartition: Map<string, { topic: string; partition: number; messages: Message[] }> | undefined;
      let release: (() => void) | undefined;
      const acknowledged = new Set<string>();
      const responses: PartitionResponse[] = [];
      try {
        return await retrier(async (bail) => {
          if (byPartition === undefined) {
            await cluster.refreshMetadataIfNecessary();
            const grouped = groupByPartition(topicMessages, cluster, partitioner, groupMessagesPerPartition);
            if (grouped === undefined) {
              // A topic without metadata yet: asked again once it is loaded, as kafkajs's sender does.
              await cluster.refreshMetadata();
              throw Object.assign(new Error('Producing to topic without metadata'), {
                name: 'KafkaJSMetadataNotLoaded',
                retriable: true,
              });
            }
            try {
              release = await turns.take(grouped.keys());
            } catch (error) {
              bail(error as Error);
              return responses;
            }
            byPartition = grouped;
          }
          const groups = unacknowledgedByLeader(byPartition, acknowledged, (topic, partition) => {
            const leaders = cluster.findLeaderForPartitions(topic, [partition]);
            return Number(Object.keys(leaders)[0] ?? -1);
          });
          const sent = await Promise.allSettled(
            [...groups.values()].map(async (group) => {
              const answers = await sendOnce({ ...sendOptions, topicMessages: group });
              for (const { topic, messages } of group) {
                for (const message of messages) acknowledged.add(keyOf(topic, message.partition as number));
              }
              responses.push(...answers);
            }),
          );
          const failure = sent.find((result) => result.status === 'rejected');
          if (failure !== undefined) {
            const error = failure.reason as Error;
            // What kafkajs's sender bails on ends the send, as before; what it throws is asked again.
            if (bailedErrors.has(error)) bail(error);
            throw error;
          }
          return responses;
        });
      } catch (error) {
        // Sent, maybe written, and given up: the partitions not acknowledged take no other send.
        if (release !== undefined && byPartition !== undefined) {
          turns.markUnresolved([...byPartition.keys()].filter((key) => !acknowledged.has(key)));
        }
        throw error;
      } finally {
        release?.();
      }
    };
  };
}

/** The messages of each topic by the partition the partitioner gives them; undefined while a topic has no metadata. */
function groupByPartition(
  topicMessages: TopicMessages[],
  cluster: ClusterLike,
  partitioner: SenderOptions['partitioner'],
  groupMessagesPerPartition: GroupMessages,
): Map<string, { topic: string; partition: number; messages: Message[] }> | undefined {
  const byPartition = new Map<string, { topic: string; partition: number; messages: Message[] }>();
  for (const { topic, messages } of topicMessages) {
    const partitionMetadata = cluster.findTopicPartitionMetadata(topic);
    if (partitionMetadata.length === 0 && messages.length > 0) return undefined;
    const grouped = groupMessagesPerPartition({ topic, partitionMetadata, messages, partitioner });
    for (const [partition, partitionMessages] of Object.entries(grouped)) {
      const key = keyOf(topic, Number(partition));
      const entry = byPartition.get(key) ?? { topic, partition: Number(partition), messages: [] };
      entry.messages.push(...partitionMessages);
      byPartition.set(key, entry);
    }
  }
  return byPartition;
}

let outcome: ModuleReplacement | undefined;

/** Puts the factory in kafkajs's place, before kafkajs's messageProducer loads. Idempotent. */
export function patchSendPerPartition(): ModuleReplacement {
  outcome ??= replaceBeforeKafkajsLoads('send retries', TAKERS, (original) => ({
    [MODULE]: sendingPerPartition(
      original(MODULE) as (options: SenderOptions) => Send,
      original(GROUP_MODULE) as GroupMessages,
    ),
  }));
  return outcome;
}

patchSendPerPartition();
