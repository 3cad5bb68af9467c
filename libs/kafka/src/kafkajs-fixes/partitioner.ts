import { randomBytes } from 'node:crypto';
import type { ICustomPartitioner, PartitionerArgs } from 'kafkajs';
import { murmur2 } from './murmur2.js';

const toPositive = (value: number): number => value & 0x7fffffff;

/**
 * kafkajs 2.2.4's DefaultPartitioner (src/producer/partitioners/legacy/partitioner.js with the Java
 * client's murmur2), choosing the same partitions: a message's own partition, else its key's
 * murmur2 modulo the topic's partitions, as the Java client does, else the next available
 * partition in turn from a random start. kafkajs's filtered the topic's partition list into a new
 * array for every message before it looked at the key; a Baton record always has a key (its
 * task_id), so this reads the list only for a message without one.
 */
export const javaCompatiblePartitioner: ICustomPartitioner = () => {
  const counters = new Map<string, number>();
  const next = (topic: string): number => {
    const counter = (counters.get(topic) ?? randomBytes(4).readUInt32BE(0)) + 1;
    counters.set(topic, counter);
    return toPositive(counter);
  };
  return ({ topic, partitionMetadata, message }: PartitionerArgs): number => {
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    if (message.key !== null && message.key !== undefined) {
      return toPositive(murmur2(message.key)) % partitionMetadata.length;
    }
    const available = partitionMetadata.filter((partition) => partition.leader >= 0);
    if (available.length > 0) return (available[next(topic) % available.length] as { partitionId: number }).partitionId;
    // None has a leader: one of them all, as kafkajs gives.
    return next(topic) % partitionMetadata.length;
  };
};
