import { randomUUID } from 'node:crypto';
import {
  createKafka,
  kafkaSecurityError,
  kafkaSecurityFromEnv,
  listTopicNames,
  TopicReader,
  type KafkaTarget,
} from '@baton/kafka';
import { EventsCodec, SchemaRegistryClient, createHandoffCodec, registryOptionsFromEnv } from '@baton/wire';
import { booleanOption, integerOption, stringOption } from '../args.js';
import type { Command } from '../context.js';
import { CliError, EXIT, usageError } from '../errors.js';
import {
  decodeRecord,
  formatRecordLine,
  type DecoderSource,
  type EventsDecoder,
  type ValueDecoder,
} from '../record-decoder.js';

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

function decoderSource(
  registryUrl: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): DecoderSource {
  const registry = once(async () => {
    if (!registryUrl) {
      throw usageError('this topic holds Avro records: give --registry or set SCHEMA_REGISTRY_URL');
    }
    return new SchemaRegistryClient(registryOptionsFromEnv(env, registryUrl));
  });
  return {
    handoffs: once(async (): Promise<ValueDecoder> => createHandoffCodec(await registry())),
    events: once(async (): Promise<EventsDecoder> => {
      const codec = await EventsCodec.create(await registry());
      return {
        decode: (bytes) => codec.decode(bytes),
        // Unchecked decoding reads with the writer schema the record names, whichever codec asks.
        decodeUnchecked: (bytes) => codec.outcome.decodeUnchecked(bytes),
      };
    }),
  };
}

/**
 * kafkajs errors: a refused login, a failed TLS handshake or a denied ACL as KAFKA_AUTH_FAILED or
 * KAFKA_NOT_AUTHORIZED; anything else (connection refused, retries exhausted) as KAFKA_UNAVAILABLE.
 */
function kafkaError(error: unknown, target: KafkaTarget): CliError {
  if (error instanceof CliError) return error;
  const brokers = target.brokers.join(',');
  const coded = (kafkaSecurityError(error, target) ?? error) as { code?: unknown; retriable?: unknown };
  if (typeof coded?.code === 'string' && /^[A-Z_]+$/.test(coded.code) && coded.retriable !== undefined) {
    return new CliError(coded.code, (coded as Error).message, {
      exitCode: coded.retriable === true ? EXIT.UNAVAILABLE : EXIT.REFUSED,
    });
  }
  return new CliError('KAFKA_UNAVAILABLE', `Kafka at ${brokers}: ${(error as Error).message}`, {
    exitCode: EXIT.UNAVAILABLE,
    cause: error,
  });
}

function toJsonLine(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

/**
 * `baton tail TOPIC`: reads the topic straight from Kafka with a group of its own (nothing is
 * committed) and prints each record decoded, until Ctrl-C or `--max` records.
 */
export const tail: Command = async (context) => {
  const [topic = ''] = context.operands;
  const brokers = stringOption(context.options, 'brokers') ?? context.io.env.KAFKA_BROKERS;
  if (!brokers)
    throw usageError('tail reads Kafka directly: give --brokers, set KAFKA_BROKERS, or start Baton with npm start');
  const registryUrl = stringOption(context.options, 'registry') ?? (context.io.env.SCHEMA_REGISTRY_URL || undefined);
  const max = integerOption(context.options, 'max', 1);
  const fromBeginning = booleanOption(context.options, 'from-beginning');
  const brokerList = brokers
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
  const target = { brokers: brokerList, security: kafkaSecurityFromEnv(context.io.env) };
  const kafka = createKafka({ ...target, clientId: 'baton-cli', logLevel: 'nothing' });

  let known: string[];
  try {
    known = await listTopicNames(kafka, (name) => name === topic);
  } catch (error) {
    throw kafkaError(error, target);
  }
  if (known.length === 0) {
    throw new CliError('TOPIC_NOT_FOUND', `no topic "${topic}" on ${brokers}`, {
      exitCode: EXIT.REFUSED,
      path: '/topic',
    });
  }

  const decoders = decoderSource(registryUrl, context.io.env);
  let printed = 0;
  let failure: unknown;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const reader = new TopicReader({
    kafka,
    groupId: `baton-cli-tail-${randomUUID()}`,
    topics: [topic],
    fromBeginning,
    onRecord: async (record) => {
      if (failure !== undefined || (max !== undefined && printed >= max)) return;
      try {
        const decoded = await decodeRecord(record, decoders);
        context.print(context.json ? toJsonLine(decoded) : formatRecordLine(decoded));
        printed += 1;
        if (max !== undefined && printed >= max) finish();
      } catch (error) {
        failure = error;
        finish();
      }
    },
  });
  const onAbort = (): void => finish();
  context.io.signal.addEventListener('abort', onAbort, { once: true });
  try {
    try {
      await reader.start();
    } catch (error) {
      throw kafkaError(error, target);
    }
    if (!context.json) {
      context.note(
        `tailing ${topic} ${fromBeginning ? 'from the beginning' : 'from now on'}` +
          `${max === undefined ? '' : `, ${max} record${max === 1 ? '' : 's'}`} (Ctrl-C to stop)`,
      );
    }
    await finished;
  } finally {
    context.io.signal.removeEventListener('abort', onAbort);
    await reader.stop().catch(() => undefined);
  }
  if (failure !== undefined) throw failure;
};
