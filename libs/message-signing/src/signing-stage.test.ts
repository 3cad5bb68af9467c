import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newKeyPair, trustStoreText } from './message-signing.test-helper.js';
import { signMessage } from './message-signer.js';
import { signingStage } from './signing-stage.js';
import { TrustStore } from './trust-store.js';

const dir = mkdtempSync(join(tmpdir(), 'baton-signing-stage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const triage = newKeyPair('triage-1', ['triage_agent']);
const other = newKeyPair('other-1', ['other_agent']);
const file = join(dir, 'trust.json');
writeFileSync(file, trustStoreText([triage.entry]));
const trustStore = new TrustStore({ file });
const message = {
  metadata: { message_id: 'm', sender_id: 'triage_agent' },
  payload: { handoff_type: 'NOTIFICATION', data: {} },
};

describe('signingStage', () => {
  it('signs what it seals with its key, and leaves a message that is already signed as it is', async () => {
    const stage = signingStage({ kind: 'handoff', mode: 'required', signingKey: triage.signingKey, trustStore });
    const sealed = stage.seal(message) as typeof message & { metadata: { signature: string } };
    expect(sealed.metadata.signature).toMatch(/^ed25519:triage-1:/);
    const signedElsewhere = signMessage('handoff', message, other.signingKey);
    expect(stage.seal(signedElsewhere)).toBe(signedElsewhere);
    expect(await stage.open(sealed)).toBe(sealed);
  });

  it('writes unsigned messages without a key, and does not look at signatures when off', async () => {
    const stage = signingStage({ kind: 'handoff', mode: 'off' });
    expect(stage.seal(message)).toBe(message);
    expect(await stage.open(message)).toBe(message);
  });

  it('refuses in required mode with the failure code, and counts each outcome', () => {
    const outcomes: string[] = [];
    const stage = signingStage({
      kind: 'handoff',
      mode: 'required',
      trustStore,
      onVerified: (outcome) => outcomes.push(outcome),
    });
    expect(() => stage.open(message)).toThrow(expect.objectContaining({ code: 'SIGNATURE_MISSING' }));
    expect(() => stage.open(signMessage('handoff', message, other.signingKey))).toThrow(
      expect.objectContaining({ code: 'SIGNING_KEY_UNKNOWN' }),
    );
    stage.open(signMessage('handoff', message, triage.signingKey));
    expect(outcomes).toEqual(['SIGNATURE_MISSING', 'SIGNING_KEY_UNKNOWN', 'valid']);
  });

  it('in warn mode reports a failure and passes the message on', () => {
    const warned: string[] = [];
    const stage = signingStage({
      kind: 'handoff',
      mode: 'warn',
      trustStore,
      onUnverified: (error, kind) => warned.push(`${kind} ${error.code}`),
    });
    expect(stage.open(message)).toBe(message);
    expect(warned).toEqual(['handoff SIGNATURE_MISSING']);
  });

  it('cannot verify without a trust store', () => {
    expect(() => signingStage({ kind: 'lifecycle', mode: 'warn' })).toThrow('signature mode warn needs a trust store');
  });
});
