import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newKeyPair, trustStoreText } from './message-signing.test-helper.js';
import { signMessage } from './message-signer.js';
import { signingStage } from './signing-stage.js';
import { TrustStore } from './trust-store.js';
import { SEAL_HEADER, VerificationSeals } from './verification-seal.js';

const dir = mkdtempSync(join(tmpdir(), 'baton-seals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const router = newKeyPair('router-1', ['router']);
const sales = newKeyPair('sales-1', ['sales_agent']);
const salesNext = newKeyPair('sales-2', ['sales_agent']);
const refunds = newKeyPair('refunds-1', ['refunds_agent']);
const user = newKeyPair('user-1', ['user']);

function trustStoreOf(entries: Record<string, unknown>[]): TrustStore {
  const file = join(mkdtempSync(join(dir, 'store-')), 'trust.json');
  writeFileSync(file, trustStoreText(entries));
  return new TrustStore({ file });
}

const store = trustStoreOf([router.entry, sales.entry, refunds.entry, user.entry]);
const value = Buffer.from('the record value as the router read it');

describe('VerificationSeals', () => {
  const routerSeals = new VerificationSeals(router.signingKey, store);

  it('seals a value for an agent that only that agent accepts, naming the router key', () => {
    const seal = routerSeals.seal(value, 'sales_agent');
    expect(seal).toMatch(/^x25519-hmac-sha256:router-1:sales-1:[A-Za-z0-9_-]{43}$/);
    expect(new VerificationSeals(sales.signingKey, store).check(value, seal)).toBe('router-1');
    expect(new VerificationSeals(refunds.signingKey, store).check(value, seal)).toBeUndefined();
  });

  it('refuses a seal over other bytes, a changed MAC, a missing header and a malformed one', () => {
    const salesSeals = new VerificationSeals(sales.signingKey, store);
    const seal = routerSeals.seal(value, 'sales_agent') as string;
    expect(salesSeals.check(Buffer.from('other bytes'), seal)).toBeUndefined();
    const flipped = `${seal.slice(0, -2)}${seal.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(salesSeals.check(value, flipped)).toBeUndefined();
    expect(salesSeals.check(value, undefined)).toBeUndefined();
    expect(salesSeals.check(value, 'x25519-hmac-sha256:router-1:sales-1')).toBeUndefined();
    expect(salesSeals.check(value, `ed25519:${seal.split(':').slice(1).join(':')}`)).toBeUndefined();
  });

  it('accepts seals only from a key that signs for the router: another sender cannot vouch', () => {
    // The user's key shares a secret with sales_agent as the router's does, but it signs for user.
    const forged = new VerificationSeals(user.signingKey, store).seal(value, 'sales_agent');
    expect(forged).toMatch(/^x25519-hmac-sha256:user-1:sales-1:/);
    expect(new VerificationSeals(sales.signingKey, store).check(value, forged)).toBeUndefined();
  });

  it('seals for every key of an agent while it rotates, and each key accepts its own', () => {
    const rotating = trustStoreOf([router.entry, sales.entry, salesNext.entry]);
    const seal = new VerificationSeals(router.signingKey, rotating).seal(value, 'sales_agent') as string;
    expect(seal.split(',')).toHaveLength(2);
    expect(new VerificationSeals(sales.signingKey, rotating).check(value, seal)).toBe('router-1');
    expect(new VerificationSeals(salesNext.signingKey, rotating).check(value, seal)).toBe('router-1');
  });

  it('makes no seal for an agent the trust store holds no key for', () => {
    expect(routerSeals.seal(value, 'unknown_agent')).toBeUndefined();
  });
});

describe('signingStage with seals', () => {
  const message = signMessage(
    'handoff',
    { metadata: { message_id: 'm', sender_id: 'user' }, payload: { handoff_type: 'NOTIFICATION', data: {} } },
    user.signingKey,
  );
  const facts = (seal: string | undefined) => ({
    value,
    header: (name: string) => (name === SEAL_HEADER ? seal : undefined),
  });

  it('takes a message the router sealed for its key without verifying it, and says so', () => {
    const outcomes: string[] = [];
    const stage = signingStage({
      kind: 'handoff',
      mode: 'required',
      signingKey: sales.signingKey,
      trustStore: store,
      onVerified: (outcome) => outcomes.push(outcome),
    });
    const read = facts(new VerificationSeals(router.signingKey, store).seal(value, 'sales_agent'));
    // Tampered after signing: only the seal can let it through, which shows the signature was not checked again.
    const tampered = { ...message, payload: { handoff_type: 'NOTIFICATION', data: { changed: true } } };
    expect(stage.open(tampered, read)).toBe(tampered);
    expect(read).toMatchObject({ verified: { senderId: 'user', sealed: true } });
    expect(outcomes).toEqual(['sealed']);
  });

  it('verifies the signature itself when the seal is not for it, and refuses a tampered message', () => {
    const outcomes: string[] = [];
    const stage = signingStage({
      kind: 'handoff',
      mode: 'required',
      signingKey: refunds.signingKey,
      trustStore: store,
      onVerified: (outcome) => outcomes.push(outcome),
    });
    const seal = new VerificationSeals(router.signingKey, store).seal(value, 'sales_agent');
    const read = facts(seal);
    expect(stage.open(message, read)).toBe(message);
    expect(read).toMatchObject({ verified: { senderId: 'user', sealed: false } });
    const tampered = { ...message, payload: { handoff_type: 'NOTIFICATION', data: { changed: true } } };
    expect(() => stage.open(tampered, facts(seal))).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
    expect(outcomes).toEqual(['valid', 'SIGNATURE_INVALID']);
  });
});

describe('outcome events sealed for their readers', () => {
  const tracker = newKeyPair('tracker-1', ['tracker']);
  const gateway = newKeyPair('gateway-1', ['*']);
  const readersStore = trustStoreOf([
    router.entry,
    sales.entry,
    refunds.entry,
    { ...tracker.entry, outcome_reader: true },
    { ...gateway.entry, outcome_reader: true },
  ]);
  const event = { event_id: 'e-1', task_id: 't-1', agent_id: 'sales_agent', outcome: 'COMPLETED' };
  const writer = signingStage({
    kind: 'outcome',
    mode: 'required',
    signingKey: sales.signingKey,
    trustStore: readersStore,
  });
  const reader = (key: typeof tracker, outcomes: string[] = []) =>
    signingStage({
      kind: 'outcome',
      mode: 'required',
      signingKey: key.signingKey,
      trustStore: readersStore,
      onVerified: (outcome) => outcomes.push(outcome),
    });

  it('seals an event for each outcome reader instead of signing it, and each reader takes it as sealed', () => {
    const sealed = writer.seal(event) as typeof event & { signature: string };
    expect(sealed.signature.split(',').map((seal) => seal.split(':').slice(0, 3).join(':'))).toEqual([
      'x25519-hmac-sha256:sales-1:tracker-1',
      'x25519-hmac-sha256:sales-1:gateway-1',
    ]);
    for (const key of [tracker, gateway]) {
      const outcomes: string[] = [];
      expect(reader(key, outcomes).open(sealed)).toBe(sealed);
      expect(outcomes).toEqual(['sealed']);
    }
  });

  it('refuses a changed event, an event sealed for other readers, and a seal by a key not of the event’s agent', () => {
    const sealed = writer.seal(event) as typeof event & { signature: string };
    expect(() => reader(tracker).open({ ...sealed, outcome: 'FAILED' })).toThrow(
      expect.objectContaining({ code: 'SIGNATURE_INVALID' }),
    );
    expect(() => reader(refunds).open(sealed)).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
    const claimingRefunds = writer.seal({ ...event, agent_id: 'refunds_agent' });
    expect(() => reader(tracker).open(claimingRefunds)).toThrow(expect.objectContaining({ code: 'SENDER_MISMATCH' }));
  });

  it('signs with Ed25519 when the trust store names no outcome reader', () => {
    const signing = signingStage({
      kind: 'outcome',
      mode: 'required',
      signingKey: sales.signingKey,
      trustStore: store,
    });
    expect((signing.seal(event) as { signature: string }).signature).toMatch(/^ed25519:sales-1:/);
  });
});
