import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newKeyPair, trustStoreText } from './message-signing.test-helper.js';
import { signMessage, signedBytes } from './message-signer.js';
import { verifySignature } from './signature-verifier.js';
import { TrustStore } from './trust-store.js';

const handoff = () => ({
  metadata: { message_id: 'm-1', sender_id: 'triage_agent', task_id: 't-1', timestamp: '2026-11-24T10:00:00.000Z' },
  context: { workflow_state: 'NEW', previous_actions: [] },
  payload: { handoff_type: 'NOTIFICATION', data: { message: 'hello', level: 2.5 } },
  instructions: {},
});

let dir: string;
let file: string;
let clock: number;
const triage = newKeyPair('triage-2026-11', ['triage_agent']);
const router = newKeyPair('router-2026-11', ['router']);

function store(entries: Record<string, unknown>[]): TrustStore {
  writeFileSync(file, trustStoreText(entries));
  return new TrustStore({ file, now: () => clock, checkIntervalMs: 5_000 });
}

/** Replaces the file the way Kubernetes updates a mounted secret: a new file swapped in. */
function rewrite(entries: Record<string, unknown>[]): void {
  writeFileSync(`${file}.new`, trustStoreText(entries));
  renameSync(`${file}.new`, file);
}

const failure = (action: () => unknown) => {
  try {
    action();
  } catch (error) {
    return error as { code: string; path?: string; message: string };
  }
  throw new Error('no error');
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-signing-'));
  file = join(dir, 'trust-store.json');
  clock = 1_000_000;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('verifySignature', () => {
  it('accepts a message signed by a key of its sender, and names key and sender', () => {
    const trust = store([triage.entry]);
    const signed = signMessage('handoff', handoff(), triage.signingKey);
    expect(signed.metadata).toMatchObject({
      signature: expect.stringMatching(/^ed25519:triage-2026-11:[A-Za-z0-9_-]{86}$/),
    });
    expect(verifySignature('handoff', signed, trust)).toEqual({ keyId: 'triage-2026-11', senderId: 'triage_agent' });
  });

  it('covers the message without its signature, in any member order', () => {
    const signed = signMessage('handoff', handoff(), triage.signingKey);
    const reordered = {
      instructions: signed.instructions,
      payload: signed.payload,
      context: signed.context,
      metadata: signed.metadata,
    };
    expect(verifySignature('handoff', reordered, store([triage.entry])).keyId).toBe('triage-2026-11');
    expect(signedBytes('handoff', signed).toString()).not.toContain('signature');
  });

  it('refuses an unsigned message as SIGNATURE_MISSING at /metadata/signature', () => {
    expect(failure(() => verifySignature('handoff', handoff(), store([triage.entry])))).toMatchObject({
      code: 'SIGNATURE_MISSING',
      path: '/metadata/signature',
    });
  });

  it('refuses a message changed after signing as SIGNATURE_INVALID', () => {
    const signed = signMessage('handoff', handoff(), triage.signingKey);
    const tampered = { ...signed, payload: { ...signed.payload, data: { message: 'hello', level: 3 } } };
    expect(failure(() => verifySignature('handoff', tampered, store([triage.entry])))).toMatchObject({
      code: 'SIGNATURE_INVALID',
      path: '/metadata/signature',
    });
  });

  it('refuses a signature made with another key under a trusted key id (a forgery) as SIGNATURE_INVALID', () => {
    const forger = newKeyPair('triage-2026-11', ['triage_agent']);
    const forged = signMessage('handoff', handoff(), forger.signingKey);
    expect(failure(() => verifySignature('handoff', forged, store([triage.entry]))).code).toBe('SIGNATURE_INVALID');
  });

  it('refuses malformed signatures as SIGNATURE_INVALID, saying what is wrong', () => {
    const trust = store([triage.entry]);
    const cases: [unknown, RegExp][] = [
      ['c2lnbmVk', /three parts/],
      ['rsa:triage-2026-11:AAAA', /algorithm "rsa"/],
      ['ed25519:bad key:AAAA', /key id/],
      ['ed25519:triage-2026-11:AA==', /base64url/],
      ['ed25519:triage-2026-11:AAAA', /3 bytes, not 64/],
      [42, /not a string/],
    ];
    for (const [signature, why] of cases) {
      const message = { ...handoff(), metadata: { ...handoff().metadata, signature } };
      const error = failure(() => verifySignature('handoff', message, trust));
      expect(error).toMatchObject({ code: 'SIGNATURE_INVALID', path: '/metadata/signature' });
      expect(error.message).toMatch(why);
    }
  });

  it('refuses a key id the trust store does not hold as SIGNING_KEY_UNKNOWN', () => {
    const signed = signMessage('handoff', handoff(), triage.signingKey);
    expect(failure(() => verifySignature('handoff', signed, store([router.entry])))).toMatchObject({
      code: 'SIGNING_KEY_UNKNOWN',
    });
  });

  it('refuses a valid signature by a key that does not sign for the claimed sender as SENDER_MISMATCH', () => {
    const claimed = { ...handoff(), metadata: { ...handoff().metadata, sender_id: 'refunds_agent' } };
    const signed = signMessage('handoff', claimed, triage.signingKey);
    const error = failure(() => verifySignature('handoff', signed, store([triage.entry])));
    expect(error).toMatchObject({ code: 'SENDER_MISMATCH', path: '/metadata/sender_id' });
    expect(error.message).toBe('key triage-2026-11 signs for triage_agent, not for sender_id refunds_agent');
  });

  it('accepts the reader’s own key for any sender: what it signed it wrote itself', () => {
    const claimed = { ...handoff(), metadata: { ...handoff().metadata, sender_id: 'refunds_agent' } };
    const signed = signMessage('handoff', claimed, triage.signingKey);
    expect(verifySignature('handoff', signed, store([triage.entry]), 'triage-2026-11').senderId).toBe('refunds_agent');
    expect(failure(() => verifySignature('handoff', signed, store([triage.entry]), 'router-2026-11')).code).toBe(
      'SENDER_MISMATCH',
    );
  });

  it('lets a key listed for any sender (*) sign for each', () => {
    const gateway = newKeyPair('gateway-1', ['*']);
    const signed = signMessage('handoff', handoff(), gateway.signingKey);
    expect(verifySignature('handoff', signed, store([gateway.entry])).senderId).toBe('triage_agent');
  });

  it('signs and verifies lifecycle messages at their top level', () => {
    const request = {
      message_type: 'HandoffRequest',
      message_id: 'r-1',
      sender_id: 'router',
      receiver_id: 'x',
      payload: {},
    };
    const signed = signMessage('lifecycle', request, router.signingKey);
    expect((signed as { signature?: string }).signature).toMatch(/^ed25519:router-2026-11:/);
    expect(verifySignature('lifecycle', signed, store([router.entry])).senderId).toBe('router');
    expect(
      failure(() => verifySignature('lifecycle', { ...signed, receiver_id: 'y' }, store([router.entry]))),
    ).toMatchObject({
      code: 'SIGNATURE_INVALID',
      path: '/signature',
    });
  });
});

describe('outcome events', () => {
  const completed = () => ({
    event_id: 'e-1',
    time: '2026-12-07T10:00:00.000Z',
    task_id: 't-1',
    message_id: 'm-1',
    agent_id: 'triage_agent',
    handoff_type: 'TASK_TRANSFER',
    outcome: 'COMPLETED',
  });

  it('are signed at their top level for the agent they name', () => {
    const signed = signMessage('outcome', completed(), triage.signingKey);
    expect((signed as { signature?: string }).signature).toMatch(/^ed25519:triage-2026-11:/);
    expect(verifySignature('outcome', signed, store([triage.entry]))).toEqual({
      keyId: 'triage-2026-11',
      senderId: 'triage_agent',
    });
  });

  it("refuses an agent's key signing an event that names another agent as SENDER_MISMATCH at /agent_id", () => {
    const forged = signMessage('outcome', { ...completed(), agent_id: 'refunds_agent' }, triage.signingKey);
    expect(failure(() => verifySignature('outcome', forged, store([triage.entry])))).toMatchObject({
      code: 'SENDER_MISMATCH',
      path: '/agent_id',
    });
  });

  it('refuses an unsigned event as SIGNATURE_MISSING, and one changed after signing as SIGNATURE_INVALID', () => {
    const trust = store([triage.entry]);
    expect(failure(() => verifySignature('outcome', completed(), trust))).toMatchObject({
      code: 'SIGNATURE_MISSING',
      path: '/signature',
    });
    const signed = signMessage('outcome', completed(), triage.signingKey);
    expect(failure(() => verifySignature('outcome', { ...signed, task_id: 't-2' }, trust)).code).toBe(
      'SIGNATURE_INVALID',
    );
  });
});

describe('TrustStore rotation', () => {
  it('reads a key added to the file as soon as a message names it, whatever unknown ids came before', () => {
    const trust = store([router.entry]);
    const intruder = newKeyPair('intruder-1', ['triage_agent']);
    expect(
      failure(() => verifySignature('handoff', signMessage('handoff', handoff(), intruder.signingKey), trust)).code,
    ).toBe('SIGNING_KEY_UNKNOWN');
    rewrite([router.entry, triage.entry]);
    expect(verifySignature('handoff', signMessage('handoff', handoff(), triage.signingKey), trust).keyId).toBe(
      'triage-2026-11',
    );
  });

  it('stops trusting a removed key once it sees the file changed', () => {
    const trust = store([router.entry, triage.entry]);
    const signed = signMessage('handoff', handoff(), triage.signingKey);
    rewrite([router.entry]);
    clock += 4_999;
    expect(verifySignature('handoff', signed, trust).keyId).toBe('triage-2026-11');
    clock += 1;
    expect(failure(() => verifySignature('handoff', signed, trust)).code).toBe('SIGNING_KEY_UNKNOWN');
  });

  it('keeps the keys it had when the changed file cannot be used, and says so once', () => {
    const failures: string[] = [];
    writeFileSync(file, trustStoreText([triage.entry]));
    const trust = new TrustStore({ file, now: () => clock });
    trust.onReloadFailed((error) => failures.push(error.message));
    rewrite([{ ...triage.entry, public_key: 'not a key' }]);
    const signed = signMessage('handoff', handoff(), triage.signingKey);
    const unknown = signMessage('handoff', handoff(), router.signingKey);
    for (let lookups = 0; lookups < 3; lookups += 1) {
      clock += 5_000;
      expect(verifySignature('handoff', signed, trust).keyId).toBe('triage-2026-11');
      expect(failure(() => verifySignature('handoff', unknown, trust)).code).toBe('SIGNING_KEY_UNKNOWN');
    }
    expect(failures).toEqual(['BATON_TRUST_STORE_FILE: keys[0].public_key of triage-2026-11 is not a PEM public key']);
  });
});
