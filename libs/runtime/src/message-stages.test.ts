import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyRingFile, generateKeyRingEntry, keyRingFileText } from '@baton/field-encryption';
import { ENCRYPTED_VALUE_PREFIX } from '@baton/protocol';
import { personalDataContextStage } from './message-stages.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function keyRingFile(): KeyRingFile {
  const dir = mkdtempSync(join(tmpdir(), 'baton-keyring-'));
  dirs.push(dir);
  const path = join(dir, 'keyring.json');
  writeFileSync(path, keyRingFileText([generateKeyRingEntry('pii-2026-11')]));
  return new KeyRingFile(path);
}

describe('personalDataContextStage', () => {
  it('encrypts a stored context’s personal fields with the key ring, and opens them back', () => {
    const stage = personalDataContextStage(keyRingFile());
    const context = { schema_version: 'baton.handoff.v1', task_description: "User 'John Doe' reported" };
    const sealed = stage?.seal(context) as typeof context;
    expect(sealed.task_description.startsWith(`${ENCRYPTED_VALUE_PREFIX}pii-2026-11:`)).toBe(true);
    expect(stage?.open(sealed)).toEqual(context);
  });

  it('is none without a key ring: contexts are stored and read as they are', () => {
    expect(personalDataContextStage(undefined)).toBeUndefined();
  });
});
