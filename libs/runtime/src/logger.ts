import pino, { type Logger } from 'pino';
import type { Handoff } from './handoff-processor.js';

export type { Logger };

/** Personal data of customers that never reaches a log line. */
const REDACTED_PATHS = [
  '*.customer_info.name',
  '*.customer_info.contact_number',
  'payload.data.customer_info.name',
  'payload.data.customer_info.contact_number',
];

/** One JSON object per line on stdout, with the service's name on every line. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
  });
}

/** A child logger for one message, so every line about it carries its task, message and correlation ids. */
export function messageLogger(logger: Logger, handoff: Handoff): Logger {
  return logger.child({
    task_id: handoff.metadata.task_id,
    message_id: handoff.metadata.message_id,
    correlation_id: handoff.metadata.correlation_id,
  });
}
