import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, ERROR_CODES } from './error-codes.js';
import { BatonError, hasErrorCode, isBatonError } from './baton-error.js';

const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
const errorSection = docs.split('## Validation issue codes')[0] ?? '';

/** The rows of the markdown tables in `text` whose first cell is a code, as trimmed cells. */
function codeRows(text: string): string[][] {
  return text
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => /^`[A-Z_]+`$/.test(cells[1] ?? ''))
    .map((cells) => [(cells[1] ?? '').replace(/`/g, ''), ...cells.slice(2)]);
}

describe('the error catalogue', () => {
  it.each(ERROR_CODES)('documents %s in docs/errors.md with its retriable flag and HTTP status', (code) => {
    const row = codeRows(errorSection).find((cells) => cells[0] === code);
    expect(row, `docs/errors.md has no row for ${code}`).toBeDefined();
    expect(row?.[1]).toBe(ERROR_CATALOGUE[code].retriable ? 'yes' : 'no');
    expect(row?.[2]).toBe(String(ERROR_CATALOGUE[code].httpStatus));
  });

  it('documents no code that the catalogue lacks', () => {
    const documented = codeRows(errorSection).map((cells) => cells[0]);
    expect(documented.sort()).toEqual([...ERROR_CODES].sort());
  });
});

describe('BatonError', () => {
  it('takes its retriable flag from the catalogue', () => {
    expect(new BatonError('REGISTRY_UNAVAILABLE', 'down').retriable).toBe(true);
    expect(new BatonError('WIRE_FORMAT_INVALID', 'bad').retriable).toBe(false);
  });

  it('is recognised by its symbol, not by its class identity', () => {
    const error = new BatonError('CONFIG_INVALID', 'missing KAFKA_BROKERS', { path: '/kafkaBrokers' });
    const copy = Object.assign(Object.create(null), error, { [Symbol.for('baton.error')]: true });
    expect(isBatonError(error)).toBe(true);
    expect(isBatonError(copy)).toBe(true);
    expect(isBatonError(new Error('plain'))).toBe(false);
    expect(hasErrorCode(error, 'CONFIG_INVALID')).toBe(true);
    expect(hasErrorCode(error, 'VALIDATION_FAILED')).toBe(false);
  });

  it('serialises to code, message and path', () => {
    const error = new BatonError('WIRE_ENCODE_FAILED', 'does not fit', { path: '/metadata/task_id' });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: 'WIRE_ENCODE_FAILED',
      message: 'does not fit',
      path: '/metadata/task_id',
    });
  });
});
