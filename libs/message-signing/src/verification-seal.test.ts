import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sodium from 'sodium-native';
import { afterAll, describe, expect, it } from 'vitest';
import { newKeyPair, trustStoreText } from './message-signing.test-helper.js';
import { signMessage } from './message-signer.js';
import { signingStage } from './signing-stage.js';
import { TrustStore } from './trust-store.js';
import { SEAL_HEADER, VOUCH_HEADER, VerificationSeals, digestOf } from './verification-seal.js';

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
const digest = digestOf(value);

describe('VerificationSeals', () => {
  const routerSeals = new VerificationSeals(router.signingKey, store);

  it('seals a value for an agent that only that agent accepts, naming the router key', () => {
    const seal = routerSeals.seal(digest, 'sales_agent');
    expect(seal).toMatch(/^x25519-blake2b-128:router-1:sales-1=[A-Za-z0-9_-]{22}$/);
    expect(new VerificationSeals(sales.signingKey, store).sealerOf(digest, seal)?.keyId).toBe('router-1');
    expect(new VerificationSeals(refunds.signingKey, store).sealerOf(digest, seal)).toBeUndefined();
  });

  it('refuses a seal over other bytes, a changed MAC, a missing header and a malformed one', () => {
    const salesSeals = new VerificationSeals(sales.signingKey, store);
    const seal = routerSeals.seal(digest, 'sales_agent') as string;
    expect(salesSeals.sealerOf(digestOf(Buffer.from('other bytes')), seal)).toBeUndefined();
    // The MAC's first character changed: the last one also holds 2 bits that decoding drops.
    const at = seal.indexOf('=') + 1;
    const flipped = `${seal.slice(0, at)}${seal[at] === 'A' ? 'B' : 'A'}${seal.slice(at + 1)}`;
    expect(salesSeals.sealerOf(digest, flipped)).toBeUndefined();
    // Each of its 22 characters changed in turn, then one left off or one added: none is the MAC.
    expect(salesSeals.sealerOf(digest, seal)?.keyId).toBe('router-1');
    for (let index = at; index < seal.length; index += 1) {
      const changed = `${seal.slice(0, index)}${seal[index] === '-' ? '_' : '-'}${seal.slice(index + 1)}`;
      expect(salesSeals.sealerOf(digest, changed), `character ${index - at}`).toBeUndefined();
    }
    expect(salesSeals.sealerOf(digest, seal.slice(0, -1))).toBeUndefined();
    expect(salesSeals.sealerOf(digest, `${seal}A`)).toBeUndefined();
    expect(salesSeals.sealerOf(digest, undefined)).toBeUndefined();
    expect(salesSeals.sealerOf(digest, 'x25519-blake2b-128:router-1:sales-1')).toBeUndefined();
    expect(salesSeals.sealerOf(digest, `ed25519:${seal.split(':').slice(1).join(':')}`)).toBeUndefined();
  });

  it('takes its own seal for a key that may vouch, and not one for any other reader', () => {
    const own = new VerificationSeals(sales.signingKey, store);
    expect(own.sealerOf(digest, own.seal(digest, 'router'))?.keyId).toBe('sales-1');
    // The user's key shares that MAC key with sales_agent: it could write sales_agent's own seal for it.
    expect(own.sealerOf(digest, own.seal(digest, 'user'))).toBeUndefined();
  });

  it('seals for every key of an agent while it rotates, and each key accepts its own', () => {
    const rotating = trustStoreOf([router.entry, sales.entry, salesNext.entry]);
    const seal = new VerificationSeals(router.signingKey, rotating).seal(digest, 'sales_agent') as string;
    expect(seal.split(',')).toHaveLength(2);
    expect(new VerificationSeals(sales.signingKey, rotating).sealerOf(digest, seal)?.keyId).toBe('router-1');
    expect(new VerificationSeals(salesNext.signingKey, rotating).sealerOf(digest, seal)?.keyId).toBe('router-1');
  });

  it('makes the seal docs/security.md specifies: X25519 of the Montgomery keys, BLAKE2b of the digest', () => {
    const seal = routerSeals.seal(digest, 'sales_agent') as string;
    const [, mac] = seal.split('=') as [string, string];
    const publicOf = (entry: Record<string, unknown>) =>
      Buffer.from(createPublicKey(String(entry.public_key)).export({ format: 'jwk' }).x as string, 'base64url');
    const [routerPublic, salesPublic] = [publicOf(router.entry), publicOf(sales.entry)];
    // The sales agent's side of it: its Ed25519 secret and the router's public key, as X25519.
    const seed = Buffer.from(sales.privateKey.export({ format: 'jwk' }).d as string, 'base64url');
    const salesSecret = Buffer.alloc(64);
    sodium.crypto_sign_seed_keypair(Buffer.alloc(32), salesSecret, seed);
    const [x25519Secret, x25519Router, shared] = [Buffer.alloc(32), Buffer.alloc(32), Buffer.alloc(32)];
    sodium.crypto_sign_ed25519_sk_to_curve25519(x25519Secret, salesSecret);
    sodium.crypto_sign_ed25519_pk_to_curve25519(x25519Router, routerPublic);
    sodium.crypto_scalarmult(shared, x25519Secret, x25519Router);
    const [low, high] = [routerPublic, salesPublic].sort(Buffer.compare) as [Buffer, Buffer];
    const pairKey = Buffer.alloc(32);
    sodium.crypto_generichash(pairKey, Buffer.concat([Buffer.from('baton verification seal v1'), low, high]), shared);
    const unkeyed = Buffer.alloc(32);
    sodium.crypto_generichash(unkeyed, value);
    const expected = Buffer.alloc(16);
    sodium.crypto_generichash(expected, unkeyed, pairKey);
    expect(mac).toBe(expected.toString('base64url'));
  });

  it('makes no seal for an agent the trust store holds no key for', () => {
    expect(routerSeals.seal(digest, 'unknown_agent')).toBeUndefined();
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
    const read = facts(new VerificationSeals(router.signingKey, store).seal(digest, 'sales_agent'), VOUCH_HEADER);
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
    const read = facts(new VerificationSeals(user.signingKey, store).seal(digest, 'router'));
    expect(routerStage.open(unsigned, read)).toBe(unsigned);
    expect(read).toMatchObject({ verified: { senderId: 'user' } });
    // Kept for the router's vouch, which seals the same bytes.
    expect((read as { digest?: Buffer }).digest).toEqual(digest);
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
      routerStage.open(unsigned, facts(new VerificationSeals(user.signingKey, store).seal(digest, 'sales_agent'))),
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
    const seal = new VerificationSeals(router.signingKey, store).seal(digest, 'sales_agent');
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

  it('is sealed once for a reader key the readers share, which each checks with its reader key', () => {
    const shared = newKeyPair('outcome-readers-1', []);
    const sharedStore = trustStoreOf([
      router.entry,
      sales.entry,
      tracker.entry,
      { ...shared.entry, outcome_reader: true },
    ]);
    const sharedWriter = signingStage({
      kind: 'outcome',
      mode: 'off',
      signingKey: sales.signingKey,
      trustStore: sharedStore,
    });
    const header = sharedWriter.headers?.(event, eventValue)?.[SEAL_HEADER] as string;
    expect(header).toMatch(/^x25519-blake2b-128:sales-1:outcome-readers-1=[\w-]{22}$/);
    const outcomes: string[] = [];
    const trackerStage = signingStage({
      kind: 'outcome',
      mode: 'required',
      signingKey: tracker.signingKey,
      readerKey: shared.signingKey,
      trustStore: sharedStore,
      onVerified: (outcome) => outcomes.push(outcome),
    });
    expect(trackerStage.open(event, readFacts(header))).toBe(event);
    // Without the reader key the seal is not for it.
    const withoutReaderKey = signingStage({
      kind: 'outcome',
      mode: 'required',
      signingKey: tracker.signingKey,
      trustStore: sharedStore,
    });
    expect(() => withoutReaderKey.open(event, readFacts(header))).toThrow(
      expect.objectContaining({ code: 'SIGNATURE_INVALID' }),
    );
    expect(outcomes).toEqual(['valid']);
  });

  it('lets only a key that reads sign for no one', () => {
    const readerOnly = newKeyPair('readers-1', []);
    expect(trustStoreOf([{ ...readerOnly.entry, outcome_reader: true }]).size).toBe(1);
    expect(() => trustStoreOf([readerOnly.entry])).toThrow(
      'keys[0].senders must list the sender_ids key readers-1 signs for (none only for a key that reads: handoff_reader or outcome_reader)',
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
