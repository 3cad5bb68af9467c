import type { Admin } from 'kafkajs';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

/**
 * Lists the cluster's topics again and again over one admin connection, kept from `connect` to
 * `disconnect`: for a look every few seconds, where `listTopicNames` would open a connection (and
 * ask for the broker's API versions and the metadata twice) each time.
 */
export class TopicLister {
  private readonly admin: Admin;

  constructor(kafka: KafkaClient) {
    this.admin = kafkajsClient(kafka).admin();
  }

  connect(): Promise<void> {
    return this.admin.connect();
  }

  /** The names of the cluster's topics that `include` accepts, sorted. */
  async list(include: (topic: string) => boolean): Promise<string[]> {
    return (await this.admin.listTopics()).filter(include).sort();
  }

  disconnect(): Promise<void> {
    return this.admin.disconnect();
  }
}
