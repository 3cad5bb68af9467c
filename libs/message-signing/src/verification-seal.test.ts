import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newKeyPair, trustStoreText } from './message-signing.test-helper.js';
import { signMessage } from './message-signer.js';
import { signingStage } from './signing-stage.js';
import { TrustStore } from './trust-store.js';
import { SEAL_HEADER, VOUCH_HEADER, VerificationSeals } from './verification-seal.js';

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
    expect(seal).toMatch(/^x25519-blake2b-128:router-1:sales-1=[A-Za-z0-9_-]{22}$/);
    expect(new VerificationSeals(sales.signingKey, store).sealerOf(value, seal)?.keyId).toBe('router-1');
    expect(new VerificationSeals(refunds.signingKey, store).sealerOf(value, seal)).toBeUndefined();
  });

  it('refuses a seal over other bytes, a changed MAC, a missing header and a malformed one', () => {
    const salesSeals = new VerificationSeals(sales.signingKey, store);
    const seal = routerSeals.seal(value, 'sales_agent') as string;
    expect(salesSeals.sealerOf(Buffer.from('other bytes'), seal)).toBeUndefined();
    // The MAC's first character changed: the last one also holds 2 bits that decoding drops.
    const at = seal.indexOf('=') + 1;
    const flipped = `${seal.slice(0, at)}${seal[at] === 'A' ? 'B' : 'A'}${seal.slice(at + 1)}`;
    expect(salesSeals.sealerOf(value, flipped)).toBeUndefined();
    expect(salesSeals.sealerOf(value, undefined)).toBeUndefined();
    expect(salesSeals.sealerOf(value, 'x25519-blake2b-128:router-1:sales-1')).toBeUndefined();
    expect(salesSeals.sealerOf(value, `ed25519:${seal.split(':').slice(1).join(':')}`)).toBeUndefined();
  });

  it('takes its own seal for a key that may vouch, and not one for any other reader', () => {
    const own = new VerificationSeals(sales.signingKey, store);
    expect(own.sealerOf(value, own.seal(value, 'router'))?.keyId).toBe('sales-1');
    // The user's key shares that MAC key with sales_agent: it could write sales_agent's own seal for it.
    expect(own.sealerOf(value, own.seal(value, 'user'))).toBeUndefined();
  });

  it('seals for every key of an agent while it rotates, and each key accepts its own', () => {
    const rotating = trustStoreOf([router.entry, sales.entry, salesNext.entry]);
    const seal = new VerificationSeals(router.signingKey, rotating).seal(value, 'sales_agent') as string;
    expect(seal.split(',')).toHaveLength(2);
    expect(new VerificationSeals(sales.signingKey, rotating).sealerOf(value, seal)?.keyId).toBe('router-1');
    expect(new VerificationSeals(salesNext.signingKey, rotating).sealerOf(value, seal)?.keyId).toBe('router-1');
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
  const facts = (seal: string | undefined, header = SEAL_HEADER) => ({
    value,
    header: (name: string) => (name === header ? seal : undefined),
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
    const read = facts(new VerificationSeals(router.signingKey, store).seal(value, 'sales_agent'), VOUCH_HEADER);
    // Tampered after signing: only the seal can let it through, which shows the signature was not checked again.
    const tampered = { ...message, payload: { handoff_type: 'NOTIFICATION', data: { changed: true } } };
    expect(stage.open(tampered, read)).toBe(tampered);
    expect(read).toMatchObject({ verified: { senderId: 'user' } });
    expect(outcomes).toEqual(['sealed']);
  });

  it("takes a handoff its sender sealed for it, and refuses one sealed by another sender's key", () => {
    const outcomes: string[] = [];
    const routerStage = signingStage({
      kind: 'handoff',
      mode: 'required',
      signingKey: router.signingKey,
      trustStore: store,
      onVerified: (outcome) => outcomes.push(outcome),
    });
    const unsigned = { metadata: { message_id: 'm', sender_id: 'user' }, payload: { handoff_type: 'NOTIFICATION' } };
    const read = facts(new VerificationSeals(user.signingKey, store).seal(value, 'router'));
    expect(routerStage.open(unsigned, read)).toBe(unsigned);
    expect(read).toMatchObject({ verified: { senderId: 'user' } });
    const claimingSales = { ...unsigned, metadata: { message_id: 'm', sender_id: 'sales_agent' } };
    expect(() => routerStage.open(claimingSales, facts(read.header(SEAL_HEADER)))).toThrow(
      expect.objectContaining({ code: 'SENDER_MISMATCH' }),
    );
    // Sealed for the router: the value changed, or a seal for another reader only, is no proof at all.
    expect(() =>
      routerStage.open(unsigned, {
        value: Buffer.from('changed'),
        header: (name: string) => (name === SEAL_HEADER ? read.header(SEAL_HEADER) : undefined),
      }),
    ).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
    expect(() =>
      routerStage.open(unsigned, facts(new VerificationSeals(user.signingKey, store).seal(value, 'sales_agent'))),
    ).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
    expect(() => routerStage.open(unsigned, facts(undefined))).toThrow(
      expect.objectContaining({ code: 'SIGNATURE_MISSING' }),
    );
    expect(outcomes).toEqual([
      'valid',
      'SENDER_MISMATCH',
      'SIGNATURE_INVALID',
      'SIGNATURE_INVALID',
      'SIGNATURE_MISSING',
    ]);
  });

  it('seals what it writes for the handoff readers the trust store names, and signs when it names none', () => {
    const readersStore = trustStoreOf([
      { ...router.entry, handoff_reader: true },
      sales.entry,
      { ...refunds.entry, handoff_reader: true },
    ]);
    const writer = signingStage({
      kind: 'handoff',
      mode: 'off',
      signingKey: sales.signingKey,
      trustStore: readersStore,
    });
    const unsigned = { metadata: { message_id: 'm', sender_id: 'sales_agent' } };
    expect(writer.seal(unsigned)).toBe(unsigned);
    const header = writer.headers?.(unsigned, value)?.[SEAL_HEADER] as string;
    expect(header).toMatch(/^x25519-blake2b-128:sales-1:router-1=[\w-]{22},refunds-1=[\w-]{22}$/);
    // A message its sender signed goes as it is, with no seal of this writer's.
    expect(writer.headers?.(message, value)).toBeUndefined();
    const signer = signingStage({ kind: 'handoff', mode: 'off', signingKey: sales.signingKey, trustStore: store });
    expect((signer.seal(unsigned) as { metadata: { signature?: string } }).metadata.signature).toMatch(
      /^ed25519:sales-1:/,
    );
    expect(signer.headers?.(signer.seal(unsigned), value)).toBeUndefined();
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
    const read = facts(seal, VOUCH_HEADER);
    expect(stage.open(message, read)).toBe(message);
    expect(read).toMatchObject({ verified: { senderId: 'user' } });
    const tampered = { ...message, payload: { handoff_type: 'NOTIFICATION', data: { changed: true } } };
    expect(() => stage.open(tampered, facts(seal, VOUCH_HEADER))).toThrow(
      expect.objectContaining({ code: 'SIGNATURE_INVALID' }),
    );
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

  const eventValue = Buffer.from('the outcome event as encoded');
  const readFacts = (header: string | undefined, bytes = eventValue) => ({
    value: bytes,
    header: (name: string) => (name === SEAL_HEADER ? header : undefined),
  });

  it('seals an event for each outcome reader instead of signing it, and each reader takes it as from its agent', () => {
    expect(writer.seal(event)).toBe(event);
    const header = writer.headers?.(event, eventValue)?.[SEAL_HEADER] as string;
    expect(header).toMatch(/^x25519-blake2b-128:sales-1:tracker-1=[\w-]{22},gateway-1=[\w-]{22}$/);
    for (const key of [tracker, gateway]) {
      const outcomes: string[] = [];
      const read = readFacts(header);
      expect(reader(key, outcomes).open(event, read)).toBe(event);
      expect(read).toMatchObject({ verified: { senderId: 'sales_agent' } });
      expect(outcomes).toEqual(['valid']);
    }
  });

  it('refuses a changed event, an event sealed for other readers, and a seal by a key not of the event’s agent', () => {
    const header = writer.headers?.(event, eventValue)?.[SEAL_HEADER] as string;
    expect(() => reader(tracker).open(event, readFacts(header, Buffer.from('changed')))).toThrow(
      expect.objectContaining({ code: 'SIGNATURE_INVALID' }),
    );
    expect(() => reader(refunds).open(event, readFacts(header))).toThrow(
      expect.objectContaining({ code: 'SIGNATURE_INVALID' }),
    );
    const claimingRefunds = { ...event, agent_id: 'refunds_agent' };
    expect(() => reader(tracker).open(claimingRefunds, readFacts(header))).toThrow(
      expect.objectContaining({ code: 'SENDER_MISMATCH' }),
    );
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
