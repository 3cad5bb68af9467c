import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { parseHandoffOutcome } from '../events/handoff-outcome.js';
import { HANDOFF_TYPES } from '../handoff/handoff-type.js';
import { parseStagedContext } from '../lifecycle/staged-context.js';
import { compileValidators } from './compile-validators.js';
import { validateHandoff } from './validate-handoff.js';
import { validateLifecycleMessage } from './validate-lifecycle.js';

const require = createRequire(import.meta.url);
const example = (path: string): unknown => structuredClone(require(`@baton/schemas/fixtures/${path}.example.json`));

// Its own file: the validators are compiled once per module instance, and vitest gives each file its own.
describe('compileValidators', () => {
  it('compiles every validator of the kinds named, once, so the first messages compile nothing', () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    compileValidators(['handoff', 'lifecycle', 'staged-context', 'outcome']);
    // Handoffs: the envelope and each handoff_type's data; one each for the other kinds.
    const compiled = HANDOFF_TYPES.length + 1 + 3;
    expect(compile).toHaveBeenCalledTimes(compiled);

    compileValidators(['handoff', 'lifecycle', 'staged-context', 'outcome']);
    expect(validateHandoff(example('status-update'))).toEqual([]);
    expect(validateLifecycleMessage(example('lifecycle/handoff-request'))).toEqual([]);
    expect(() => parseStagedContext({})).toThrow();
    expect(() => parseHandoffOutcome({})).toThrow();
    expect(compile).toHaveBeenCalledTimes(compiled);
    compile.mockRestore();
  });
});
