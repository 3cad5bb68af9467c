import { describe, expect, test } from 'vitest';
import { logLevel } from 'kafkajs';
import { toKafkajsLogLevel, toLogRecord } from './log-records.js';

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
