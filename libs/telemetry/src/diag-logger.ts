import type { DiagLogger } from '@opentelemetry/api';
import type { TracingLogger } from './tracing-logger.js';

function describe(arg: unknown): string {
  if (arg instanceof Error) return arg.message;
  if (typeof arg === 'string') return arg;
  try {
    return JSON.stringify(arg);
  } catch {
    return String(arg);
  }
}

/**
 * The SDK's own warnings and errors (an export that failed, a bad sampler name) as the service's
 * log lines, passed through `redact` first: an API key in OTEL_EXPORTER_OTLP_HEADERS must not
 * reach a log even when an error message quotes a request.
 */
export function diagLogger(logger: TracingLogger, redact: (text: string) => string): DiagLogger {
  const line =
    (level: 'warn' | 'error') =>
    (message: string, ...args: unknown[]): void => {
      logger[level]({ event: 'tracing.sdk', detail: redact(args.map(describe).join(' ')) }, redact(message));
    };
  const ignored = (): void => undefined;
  return { error: line('error'), warn: line('warn'), info: ignored, debug: ignored, verbose: ignored };
}
