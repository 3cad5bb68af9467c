import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '@baton/errors';
import {
  readSigningKey,
  SEAL_HEADER,
  signMessage,
  TrustStore,
  VerificationSeals,
  digestOf,
  type SigningKey,
} from '@baton/message-signing';
import { buildHandoff } from '@baton/protocol';
import { parseRoutingTable, parseSenderPolicy } from '@baton/routing';
import { recordFacts } from '@baton/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import {
  inboxVouch,
  judgeReplay,
  TRUST_REFUSAL_CODES,
  type ReplayCandidate,
  type ReplayTrust,
} from './replay-trust.js';

function keyPair(keyId: string, senders: string[]): { key: SigningKey; entry: Record<string, unknown> } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    key: readSigningKey(keyId, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    entry: { key_id: keyId, senders, public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  };
}

const portal = keyPair('portal-1', ['portal']);
const stranger = keyPair('stranger-1', ['portal']);
const gateway = keyPair('gateway-1', ['*']);
const router = keyPair('router-1', ['router']);
const tech = keyPair('tech-1', ['tech']);
const dir = mkdtempSync(join(tmpdir(), 'replay-trust-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, 'trust.json'),
  JSON.stringify({ keys: [portal.entry, gateway.entry, router.entry, tech.entry] }),
);
const trustStore = new TrustStore({ file: join(dir, 'trust.json') });

const table = parseRoutingTable('version: 1\nagents: [triage, tech]\nrules: []\ndefault: triage\n');
const policy = parseSenderPolicy(
  `
version: 1
external_senders: [portal, mallory]
rules:
  - id: portal-starts
    senders: [portal]
    handoff_types: [TASK_TRANSFER]
    recipients: [triage]
`,
  table,
);
const trust: ReplayTrust = {
  trustStore,
  policy,
  inboxAgentOf: (topic) => /^t\.agent\.([^.]+)\.inbox$/.exec(topic)?.[1],
};

function handoff(sender_id = 'portal'): Record<string, unknown> {
  return buildHandoff({
    metadata: { sender_id, recipient_id: 'triage', task_id: 'task-1' },
    payload: { handoff_type: 'TASK_TRANSFER', data: { issue_category: 'GENERAL_SUPPORT', task_summary: 'Help' } },
  }) as unknown as Record<string, unknown>;
}

function candidate(message: ReplayCandidate['message'], target = 't.handoffs.inbound', code?: string): ReplayCandidate {
  return { recordedCode: code, recordedMessage: 'recorded reason', message, target };
}

function reasonOf(verdict: BatonError | undefined): unknown {
  expect(verdict?.code).toBe('REPLAY_TRUST_REFUSED');
  return verdict?.details?.reason_code;
}

describe('judgeReplay', () => {
  const signed = signMessage('handoff', handoff(), portal.key);

  it('lets a message its trusted sender signed go to the inbound topic and to an inbox the policy allows', () => {
    expect(judgeReplay(candidate(signed), trust)).toBeUndefined();
    expect(judgeReplay(candidate(signed, 't.agent.triage.inbox'), trust)).toBeUndefined();
  });

  it.each([...TRUST_REFUSAL_CODES])('refuses a dead letter recorded as %s, naming the code and its reason', (code) => {
    const verdict = judgeReplay(candidate(signed, 't.handoffs.inbound', code), trust);
    expect(reasonOf(verdict)).toBe(code);
    expect(verdict?.message).toBe(
      `replay refused (${code}): the dead letter was refused with ${code}: recorded reason; ` +
        'a replay never turns a message refused for who sent it into a processed one',
    );
  });

  it('judges a dead letter recorded for another reason by its own signature: headers are not signed', () => {
    const tampered = { ...signed, payload: { ...(signed.payload as object), handoff_type: 'TASK_TRANSFER', x: 1 } };
    // A random key under a trusted key id.
    const forged = signMessage('handoff', handoff(), { keyId: 'portal-1', privateKey: stranger.key.privateKey });
    const cases: [Record<string, unknown>, string][] = [
      [tampered, 'SIGNATURE_INVALID'],
      [signMessage('handoff', handoff(), stranger.key), 'SIGNING_KEY_UNKNOWN'],
      [forged, 'SIGNATURE_INVALID'],
      [signMessage('handoff', handoff('mallory'), portal.key), 'SENDER_MISMATCH'],
      [handoff(), 'SIGNATURE_MISSING'],
    ];
    for (const [message, code] of cases) {
      expect(reasonOf(judgeReplay(candidate(message, 't.handoffs.inbound', 'HANDLER_FAILED'), trust))).toBe(code);
    }
  });

  it("refuses a replay into an inbox the verified sender may not send to, as the router's policy would", () => {
    const verdict = judgeReplay(candidate(signed, 't.agent.tech.inbox'), trust);
    expect(reasonOf(verdict)).toBe('NOT_AUTHORIZED');
    expect(verdict?.path).toBe('/metadata/sender_id');
    expect(verdict?.message).toContain('sender "portal" may not send TASK_TRANSFER to "tech"');
  });

  it('takes a handoff its sender sealed for the gateway, and refuses one sealed for the router only or changed', () => {
    const value = Buffer.from('the dead letter value');
    const sealed = (bytes: Buffer, reader: string, sender = portal.key) => {
      const seal = new VerificationSeals(sender, trustStore).sealFor(digestOf(value), [trustStore.keyFor(reader)!]);
      // The facts of a consumed record, as the gateway reads a dead letter: the gate must not lose their `this`.
      return recordFacts({
        topic: 't.dlq',
        partition: 0,
        offset: '0',
        key: null,
        value: bytes,
        headers: seal === undefined ? {} : { [SEAL_HEADER]: seal },
        timestamp: '0',
      });
    };
    const withGateway: ReplayTrust = { ...trust, signingKey: gateway.key };
    const unsigned = handoff();
    const judged = (facts: ReplayCandidate['facts'], target = 't.handoffs.inbound') =>
      judgeReplay({ ...candidate(unsigned, target, 'HANDLER_FAILED'), facts }, withGateway);
    expect(judged(sealed(value, 'gateway-1'))).toBeUndefined();
    expect(reasonOf(judged(sealed(value, 'gateway-1'), 't.agent.tech.inbox'))).toBe('NOT_AUTHORIZED');
    expect(reasonOf(judged(sealed(value, 'router-1')))).toBe('SIGNATURE_INVALID');
    expect(reasonOf(judged(sealed(Buffer.from('changed'), 'gateway-1')))).toBe('SIGNATURE_INVALID');
    expect(reasonOf(judged(sealed(value, 'gateway-1', stranger.key)))).toBe('SIGNATURE_INVALID');
  });

  it("vouches to the inbox's agent for what it let through, as the router would, and to no other topic", () => {
    const withGateway: ReplayTrust = { ...trust, signingKey: gateway.key };
    const value = Buffer.from('the replayed value');
    const vouch = inboxVouch(withGateway, 't.agent.tech.inbox', value);
    expect(vouch).toMatch(/^x25519-blake2b-128:gateway-1:tech-1=[\w-]{22}$/);
    const techSeals = new VerificationSeals(tech.key, trustStore);
    expect(techSeals.sealerOf(digestOf(value), vouch)?.keyId).toBe('gateway-1');
    expect(techSeals.sealerOf(digestOf(Buffer.from('other bytes')), vouch)).toBeUndefined();
    expect(inboxVouch(withGateway, 't.handoffs.inbound', value)).toBeUndefined();
    expect(inboxVouch(trust, 't.agent.tech.inbox', value)).toBeUndefined();
  });

  it('checks neither signatures nor a policy the gateway was not given, but still the recorded code', () => {
    const bare: ReplayTrust = { inboxAgentOf: trust.inboxAgentOf };
    expect(judgeReplay(candidate(handoff('mallory'), 't.agent.tech.inbox'), bare)).toBeUndefined();
    expect(reasonOf(judgeReplay(candidate(handoff(), 't.agent.tech.inbox', 'NOT_AUTHORIZED'), bare))).toBe(
      'NOT_AUTHORIZED',
    );
  });

  it('refuses a value it cannot decode when it has something to check, naming the decode code', () => {
    const undecodable = new BatonError('WIRE_FORMAT_INVALID', 'magic byte is not 0');
    expect(reasonOf(judgeReplay(candidate(undecodable), trust))).toBe('WIRE_FORMAT_INVALID');
    expect(judgeReplay(candidate(undecodable), { inboxAgentOf: () => undefined })).toBeUndefined();
  });
});
