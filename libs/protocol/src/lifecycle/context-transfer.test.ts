import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseLifecycleMessage } from '../validation/validate-lifecycle.js';
import { contextTransferMode } from './context-transfer.js';
import type { TaskContextTransfer } from './lifecycle-message.js';

const require = createRequire(import.meta.url);
const transfer = (name: string): TaskContextTransfer =>
  parseLifecycleMessage(require(`@baton/schemas/fixtures/lifecycle/${name}.example.json`)) as TaskContextTransfer;

describe('contextTransferMode', () => {
  it('tells a context sent by value from one sent by reference', () => {
    expect(contextTransferMode(transfer('task-context-transfer'))).toBe('by-value');
    expect(contextTransferMode(transfer('task-context-transfer-by-reference'))).toBe('by-reference');
  });
});
