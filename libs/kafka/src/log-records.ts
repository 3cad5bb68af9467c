import { logLevel, type LogEntry, type logCreator } from 'kafkajs';

export type KafkaLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

/** One kafkajs log line in Baton's structured form. */
export interface KafkaLogRecord {
  level: Exclude<KafkaLogLevel, 'nothing'>;
  time: string;
  msg: string;
  /** The kafkajs component that logged, e.g. `Consumer` or `Connection`. */
  namespace: string;
  [field: string]: unknown;
}

export type KafkaLogSink = (record: KafkaLogRecord) => void;

const LEVELS: Record<KafkaLogLevel, logLevel> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

export function toKafkajsLogLevel(level: KafkaLogLevel): logLevel {
  return LEVELS[level];
}

export function toLogRecord(entry: LogEntry): KafkaLogRecord {
  const { timestamp, message, ...fields } = entry.log;
  return {
    ...fields,
    level: levelName(entry.level),
    time: timestamp,
    msg: message,
    namespace: entry.namespace,
  };
}

/** One JSON object per line on stderr, so kafkajs output can be parsed like every other Baton log. */
export const writeJsonToStderr: KafkaLogSink = (record) => {
  process.stderr.write(`${JSON.stringify({ ...record, source: 'kafkajs' })}\n`);
};

/**
 * What kafkajs logs as an error or a warning although it is expected here: a transaction begun
 * while the broker still writes the previous one's commit markers (retried at once); and the
 * warning that bounded retries may break an idempotent producer's guarantees, which holds only for
 * sends outside a transaction: Baton's transactional producers bound their retries so that a
 * failed transaction is aborted and its work started over from the committed offset.
 */
const EXPECTED_RETRIES = [
  'another concurrent operation on the same transaction',
  'Limiting retries for the idempotent producer may invalidate EoS guarantees',
];

function isExpectedRetry(record: KafkaLogRecord): boolean {
  const text = `${record.msg} ${typeof record.error === 'string' ? record.error : ''}`;
  return EXPECTED_RETRIES.some((phrase) => text.includes(phrase));
}

/** kafkajs's logger, writing to `sink`; expected retries are logged at debug, not error. */
export function sinkLogCreator(sink: KafkaLogSink, threshold: logLevel = logLevel.WARN): logCreator {
  return () => (entry) => {
    const record = toLogRecord(entry);
    if (!isExpectedRetry(record)) sink(record);
    else if (threshold >= logLevel.DEBUG) sink({ ...record, level: 'debug' });
  };
}

function levelName(level: logLevel): KafkaLogRecord['level'] {
  switch (level) {
    case logLevel.ERROR:
      return 'error';
    case logLevel.WARN:
      return 'warn';
    case logLevel.INFO:
      return 'info';
    default:
      return 'debug';
  }
}
