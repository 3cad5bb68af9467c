import { describe, expect, test } from 'vitest';
import { logLevel } from 'kafkajs';
import { sinkLogCreator, toKafkajsLogLevel, toLogRecord, type KafkaLogRecord } from './log-records.js';

describe('toLogRecord', () => {
  test('keeps the extra fields kafkajs logs and names the level', () => {
    const record = toLogRecord({
      namespace: 'Connection',
      level: logLevel.ERROR,
      label: 'ERROR',
      log: {
        timestamp: '2026-01-01T00:00:00.000Z',
        message: 'Connection error',
        broker: '127.0.0.1:9092',
        retryCount: 2,
      },
    });

    expect(record).toEqual({
      level: 'error',
      time: '2026-01-01T00:00:00.000Z',
      msg: 'Connection error',
      namespace: 'Connection',
      broker: '127.0.0.1:9092',
      retryCount: 2,
    });
  });

  test('a field kafkajs names like ours does not overwrite ours', () => {
    const record = toLogRecord({
      namespace: 'Consumer',
      level: logLevel.WARN,
      label: 'WARN',
      log: { timestamp: 't', message: 'm', level: 'bogus', namespace: 'bogus' },
    });

    expect(record).toMatchObject({ level: 'warn', namespace: 'Consumer' });
  });
});

test('every Baton log level maps to the kafkajs level of the same name', () => {
  expect([
    toKafkajsLogLevel('nothing'),
    toKafkajsLogLevel('error'),
    toKafkajsLogLevel('warn'),
    toKafkajsLogLevel('info'),
    toKafkajsLogLevel('debug'),
  ]).toEqual([logLevel.NOTHING, logLevel.ERROR, logLevel.WARN, logLevel.INFO, logLevel.DEBUG]);
});

describe('sinkLogCreator', () => {
  test('keeps concurrent-transaction retries out of error logs', () => {
    const seen: KafkaLogRecord[] = [];
    const log = sinkLogCreator((record) => seen.push(record))(logLevel.WARN);
    const entry = (message: string) => ({
      namespace: 'Producer',
      level: logLevel.ERROR,
      label: 'ERROR',
      log: { timestamp: '2026-11-21T00:00:00.000Z', message },
    });
    log(
      entry(
        'Failed to send messages: The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing',
      ),
    );
    log(entry('Limiting retries for the idempotent producer may invalidate EoS guarantees'));
    log(entry('Connection error: connect ECONNREFUSED'));
    expect(seen.map((record) => record.msg)).toEqual(['Connection error: connect ECONNREFUSED']);
  });

  test("keeps the broker's answers about topics not ready yet out of error logs, not other answers", () => {
    const seen: KafkaLogRecord[] = [];
    const log = sinkLogCreator((record) => seen.push(record))(logLevel.WARN);
    const answer = (message: string, error: string) => ({
      namespace: 'Connection',
      level: logLevel.ERROR,
      label: 'ERROR',
      log: { timestamp: '2026-11-24T00:00:00.000Z', message, error },
    });
    log(answer('Response Metadata(key: 3, version: 6)', 'This server does not host this topic-partition'));
    log(answer('Response ListOffsets(key: 2, version: 3)', 'This server is not the leader for that topic-partition'));
    log(answer('Response CreateTopics(key: 19, version: 3)', 'Topic creation errors'));
    log({
      ...answer('Failed to send messages: This server is not the leader for that topic-partition', ''),
      namespace: 'Producer',
    });
    log({
      ...answer('Failed to send messages: The coordinator is not aware of this member', ''),
      namespace: 'Producer',
    });
    log(
      answer('Response Produce(key: 0, version: 7)', 'The request included a message larger than the max message size'),
    );
    log({
      ...answer('Crash: KafkaJSNumberOfRetriesExceeded', 'This server does not host this topic-partition'),
      namespace: 'Consumer',
    });
    expect(seen.map((record) => record.msg)).toEqual([
      'Failed to send messages: The coordinator is not aware of this member',
      'Response Produce(key: 0, version: 7)',
      'Crash: KafkaJSNumberOfRetriesExceeded',
    ]);
  });
});
