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

/**
 * kafkajs's Connection logs every error answer of the broker as an error before handing it to the
 * client that asked, and its producer logs each send it retries after such an answer; the client
 * retries, waits it out or fails with an error of its own (logged where it is handled). These
 * answers are expected while services start side by side: a topic created a moment ago has no
 * leader yet in the broker's metadata (createTopics polls until it has; another service's client
 * may ask for it meanwhile), or its leader has not taken the partition up yet when the first
 * records are sent; and of two services creating the same topic at once, the second hears that it
 * exists (createTopics takes that as done).
 */
const EXPECTED_ANSWERS = [
  'This server does not host this topic-partition',
  'This server is not the leader for that topic-partition',
  'There is no leader for this topic-partition',
  'Topic creation errors',
];

/** How kafkajs's producer logs a send it retries after refreshing its metadata. */
const RETRIED_SEND = 'Failed to send messages: ';

function isExpectedRetry(record: KafkaLogRecord): boolean {
  const error = typeof record.error === 'string' ? record.error : '';
  const answer =
    record.namespace === 'Connection' && record.msg.startsWith('Response ')
      ? error
      : record.namespace === 'Producer' && record.msg.startsWith(RETRIED_SEND)
        ? record.msg.slice(RETRIED_SEND.length)
        : undefined;
  if (answer !== undefined && EXPECTED_ANSWERS.some((expected) => answer.startsWith(expected))) return true;
  const text = `${record.msg} ${error}`;
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
