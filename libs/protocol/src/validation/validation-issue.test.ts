import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VALIDATION_ISSUE_CODES } from './validation-issue.js';

const docs = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');
const section = docs.split('## Validation issue codes')[1] ?? '';

describe('the validation issue codes', () => {
  it('are exactly the ones documented in docs/errors.md', () => {
    const documented = section
      .split('\n')
      .map((line) => line.split('|')[1]?.trim() ?? '')
      .filter((cell) => /^`[A-Z_]+`$/.test(cell))
      .map((cell) => cell.replace(/`/g, ''));
    expect(documented.sort()).toEqual(Object.keys(VALIDATION_ISSUE_CODES).sort());
  });
});
