import { describe, expect, it } from 'vitest';
import { BatonError } from '@baton/errors';
import { CliError, EXIT, apiError, exitCodeForStatus, formatError, toCliError } from './errors.js';

describe('exit codes', () => {
  it('maps 4xx to 2 and 5xx to 3', () => {
    expect([400, 401, 403, 404, 409].map(exitCodeForStatus)).toEqual([2, 2, 2, 2, 2]);
    expect([500, 502, 503].map(exitCodeForStatus)).toEqual([3, 3, 3]);
  });

  it('reads the gateway error shape, issues included', () => {
    const error = apiError(400, {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'invalid handoff message',
        path: '/payload',
        issues: [{ code: 'FIELD_REQUIRED', path: '/payload/data/x', message: 'missing' }],
      },
    });
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', exitCode: EXIT.REFUSED, path: '/payload' });
    expect(error.issues).toEqual([{ code: 'FIELD_REQUIRED', path: '/payload/data/x', message: 'missing' }]);
    expect(apiError(503, { error: { code: 'KAFKA_UNAVAILABLE', message: 'down' } }).exitCode).toBe(EXIT.UNAVAILABLE);
    expect(apiError(502, '<html>bad gateway</html>')).toMatchObject({ code: 'HTTP_502', exitCode: EXIT.UNAVAILABLE });
  });

  it('maps Baton errors by code: outages to 3, validation to 1, others to 2; anything else is INTERNAL', () => {
    expect(toCliError(new BatonError('REGISTRY_UNAVAILABLE', 'down')).exitCode).toBe(EXIT.UNAVAILABLE);
    expect(toCliError(new BatonError('KAFKA_UNAVAILABLE', 'down')).exitCode).toBe(EXIT.UNAVAILABLE);
    const invalid = new BatonError('VALIDATION_FAILED', 'bad', {
      details: { issues: [{ code: 'FIELD_REQUIRED', path: '/a', message: 'm' }] },
    });
    expect(toCliError(invalid)).toMatchObject({ exitCode: EXIT.USAGE, issues: [{ path: '/a' }] });
    expect(toCliError(new BatonError('TASK_NOT_FOUND', 'no')).exitCode).toBe(EXIT.REFUSED);
    expect(toCliError(new Error('boom'))).toMatchObject({ code: 'INTERNAL', exitCode: EXIT.UNAVAILABLE });
    const own = new CliError('USAGE', 'x', { exitCode: EXIT.USAGE });
    expect(toCliError(own)).toBe(own);
  });
});

describe('formatError', () => {
  it('prints one line, with the path when there is one, then one line per issue', () => {
    const error = new CliError('VALIDATION_FAILED', 'invalid\nhandoff', {
      exitCode: EXIT.USAGE,
      path: '/payload',
      issues: [
        { code: 'FIELD_REQUIRED', path: '/metadata/task_id', message: 'missing' },
        { code: 'TYPE_MISMATCH', path: '', message: 'not an object' },
      ],
    });
    expect(formatError(error)).toEqual([
      'error VALIDATION_FAILED at /payload: invalid handoff',
      '  FIELD_REQUIRED /metadata/task_id: missing',
      '  TYPE_MISMATCH /: not an object',
    ]);
    expect(formatError(new CliError('USAGE', 'no', { exitCode: EXIT.USAGE }))).toEqual(['error USAGE: no']);
  });
});
