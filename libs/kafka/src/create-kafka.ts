// First of all: kafkajs must load with the fixed read_committed filter, produce encoding, produce
// request, key hash, transaction offsets and send retries (see read-committed.ts, produce-encoding.ts,
// produce-request.ts, murmur2.ts, transaction-offsets.ts, send-per-partition.ts).
import './kafkajs-fixes/read-committed.js';
import './kafkajs-fixes/transaction-offsets.js';
import './kafkajs-fixes/produce-encoding.js';
import './kafkajs-fixes/produce-request.js';
import './kafkajs-fixes/murmur2.js';
import './kafkajs-fixes/record-decoding.js';
// Last of the module replacements: it loads kafkajs's sendMessages, whose modules the others replace.
import './kafkajs-fixes/send-per-partition.js';
import { Kafka, type Producer, type ProducerConfig } from 'kafkajs';
import { patchConsumerFetchWaits } from './kafkajs-fixes/consumer-fetch-waits.js';
import { patchCoordinatorCache } from './kafkajs-fixes/coordinator-cache.js';
import { patchIdleRequestQueue } from './kafkajs-fixes/idle-request-queue.js';
import { javaCompatiblePartitioner } from './kafkajs-fixes/partitioner.js';
import { KafkaClient, kafkajsClient } from './kafka-client.js';
import type { KafkaSecurity } from './security/kafka-security.js';
import { kafkajsSecurity } from './security/kafkajs-security.js';
import {
  sinkLogCreator,
  toKafkajsLogLevel,
  writeJsonToStderr,
  type KafkaLogLevel,
  type KafkaLogSink,
} from './log-records.js';

// When @baton/kafka is loaded, before any client connects: kafkajs 2.2.4's idle connections
// otherwise wake up every millisecond (see idle-request-queue.ts), and its transactional producers
// look their coordinator up before every request (see coordinator-cache.ts), and a consumer's stop
// and resumes wait out its fetch wait (see consumer-fetch-waits.ts).
patchIdleRequestQueue();
patchCoordinatorCache();
patchConsumerFetchWaits();

/**
 * How long a connection to a broker may take to open. kafkajs's default, 1 s, is measured with a
 * timer, so a process whose event loop is busy for a second while it connects (a service loading
 * its modules while a whole fleet starts on 2 cores) sees the timer fire before the connection it
 * already has: spurious "Connection timeout" errors and retries (kafkajs issue 480, where its
 * maintainers advise 10 s). 10 s is the Java client's socket.connection.setup.timeout.ms.
 */
export const CONNECTION_TIMEOUT_MS = 10_000;

export interface CreateKafkaOptions {
  brokers: string[];
  clientId: string;
  /**
   * TLS and SASL, as kafkaSecurityFromEnv reads them (KAFKA_SECURITY_PROTOCOL and the rest).
   * @default PLAINTEXT, as the local broker listens
   */
  security?: KafkaSecurity;
  /** @default 'warn' */
  logLevel?: KafkaLogLevel;
  /** Where kafkajs log records go. @default one JSON line per record on stderr */
  logSink?: KafkaLogSink;
}

/** A client of the cluster at `brokers`, secured by `security`, with kafkajs's logs going to `logSink`. */
export function createKafka(options: CreateKafkaOptions): KafkaClient {
  return new KafkaClient(
    new Kafka({
      brokers: options.brokers,
      clientId: options.clientId,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      ...kafkajsSecurity(options.security),
      logLevel: toKafkajsLogLevel(options.logLevel ?? 'warn'),
      logCreator: sinkLogCreator(options.logSink ?? writeJsonToStderr, toKafkajsLogLevel(options.logLevel ?? 'warn')),
    }),
    { brokers: options.brokers, security: options.security },
  );
}

/**
 * A kafkajs producer that partitions keyed records with murmur2, as the Java client does, so a key
 * lands on the same partition whichever client wrote it. Naming the partitioner also silences the
 * warning kafkajs 2 logs when it is left to its default. For this lib's internals; others use
 * RecordProducer or TransactionalSender.
 */
export function kafkajsProducer(client: KafkaClient, config: ProducerConfig = {}): Producer {
  return kafkajsClient(client).producer({ createPartitioner: javaCompatiblePartitioner, ...config });
}
