import { Writable } from 'node:stream';
import { createLogger, type Logger } from './logger.js';

/** A logger at debug whose JSON lines are kept, parsed, in `lines`: for tests of what is logged. */
export function capturedLogger(service = 'test'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger(service, 'debug', destination), lines };
}
