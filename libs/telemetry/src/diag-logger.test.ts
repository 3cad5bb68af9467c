import { describe, expect, it } from 'vitest';
import { diagLogger } from './diag-logger.js';
import { redactor } from './secrets.js';
import { headerValues } from './tracing-config.js';

describe('the SDK diagnostics in the service log', () => {
  it('never show a value of the exporter headers, whether in the message or its details', () => {
    const lines: { level: string; facts: Record<string, unknown>; message: string }[] = [];
    const logger = {
      info: (facts: Record<string, unknown>, message: string) => lines.push({ level: 'info', facts, message }),
      warn: (facts: Record<string, unknown>, message: string) => lines.push({ level: 'warn', facts, message }),
      error: (facts: Record<string, unknown>, message: string) => lines.push({ level: 'error', facts, message }),
    };
    const diag = diagLogger(logger, redactor(headerValues('authorization=Bearer%20sk-live-42')));
    diag.error('export failed with authorization: Bearer sk-live-42', new Error('401 for Bearer%20sk-live-42'), {
      headers: { authorization: 'Bearer sk-live-42' },
    });
    diag.warn('retrying');
    diag.info('exported');
    diag.debug('request headers Bearer sk-live-42');
    expect(lines.map((line) => line.level)).toEqual(['error', 'warn']);
    expect(JSON.stringify(lines)).not.toContain('sk-live-42');
    expect(lines[0]).toEqual({
      level: 'error',
      facts: { event: 'tracing.sdk', detail: '401 for [redacted] {"headers":{"authorization":"[redacted]"}}' },
      message: 'export failed with authorization: [redacted]',
    });
  });
});
