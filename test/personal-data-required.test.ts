import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KeyRingFile, PersonalFields, decryptPersonalData } from '@baton/field-encryption';
import { buildHandoff, isEncryptedValue, type HandoffDraft, type HandoffMessage } from '@baton/protocol';
import { customerTransfer, startPersonalDataRig, type PersonalDataRig } from './helpers/personal-data-rig.js';
import { readTopicLog } from './helpers/read-topic.js';
import { uniqueName, waitFor, type RecordCollector } from './helpers/index.js';

/**
 * BATON_PII_REQUIRED=true on the router, on the real broker and registry: a third-party producer's
 * handoff whose personal fields are in clear reaches no inbox, and its dead letter holds them
 * encrypted; the same handoff encrypted is routed.
 */

const AGENT = 'customer_service_agent';
const CLEAR_VALUES = ['John Doe', '+1-555-123-4567', 'My internet keeps dropping every hour.'];

let pii: PersonalDataRig;
let inbox: RecordCollector;
let dlq: RecordCollector;

/** A handoff as a third-party producer builds it: its personal fields in clear. */
function transfer(taskId: string): Record<string, any> {
  return buildHandoff(customerTransfer(taskId, AGENT) as unknown as HandoffDraft);
}

/**
 * `message` with every personal field encrypted by the JDK-only Java program that follows
 * docs/security.md's value format: what a third-party producer in Java would write.
 */
function encryptedInJava(message: Record<string, any>, keyRingPath: string): Record<string, any> {
  const fields = new PersonalFields();
  const values: unknown[] = [];
  fields.map('handoff', message, (value) => {
    if (value !== undefined && value !== null) values.push(value);
    return value;
  });
  const { keys } = JSON.parse(readFileSync(keyRingPath, 'utf8')) as { keys: { key_id: string; key: string }[] };
  const output = execFileSync('java', ['test/fixtures/encryption/EncryptFields.java', keys[0]!.key_id], {
    input: [keys[0]!.key, ...values.map((value) => JSON.stringify(value))].join('\n'),
    encoding: 'utf8',
  });
  const encrypted = output.trimEnd().split('\n');
  expect(encrypted).toHaveLength(values.length);
  let next = 0;
  return fields.map('handoff', message, (value) =>
    value === undefined || value === null ? value : encrypted[next++],
  ) as Record<string, any>;
}

beforeAll(async () => {
  pii = await startPersonalDataRig('pii-required', [AGENT], {
    routerEnv: (keyRingEnv) => ({ ...keyRingEnv, BATON_PII_REQUIRED: 'true' }),
  });
  [inbox, dlq] = await Promise.all([
    pii.rig.collect(pii.rig.topics.agentInbox(AGENT)),
    pii.rig.collect(`${pii.rig.topics.inbound}.dlq`),
  ]);
});

afterAll(async () => {
  expect(await pii?.stop()).toEqual({ router: 0 });
});

describe('the router with BATON_PII_REQUIRED=true', () => {
  it('says at start that it requires encrypted personal fields', () => {
    expect(pii.rig.services.router!.logs.filter((line) => line.event === 'personal-data.policy')).toMatchObject([
      { required: true, keys: ['pii-test'] },
    ]);
  });

  it('dead-letters a clear handoff with PERSONAL_DATA_UNENCRYPTED, forwards it nowhere, and stores it encrypted', async () => {
    const { rig, keyRingPath } = pii;
    const clear = transfer(uniqueName('pii-clear'));
    const taskId = clear.metadata.task_id;
    await rig.publisher.publish(rig.topics.inbound, clear as HandoffMessage);
    const letter = await waitFor(() => dlq.records.find((record) => record.key === taskId), {
      description: 'the clear handoff in the dead-letter topic',
      timeoutMs: 30_000,
    });
    expect(letter.headers).toMatchObject({
      'baton.dlq.error.code': 'PERSONAL_DATA_UNENCRYPTED',
      'baton.dlq.error.retriable': 'false',
      '__connect.errors.stage': 'personal-data',
    });
    const message = letter.headers['__connect.errors.exception.message']!;
    expect(message).toContain('/payload/data/customer_info/name');
    for (const value of CLEAR_VALUES) expect(message).not.toContain(value);

    // The bytes as a plain consumer reads them: no clear value, here or in any inbox.
    const raw = letter.value!.toString('latin1');
    for (const value of CLEAR_VALUES) expect(raw).not.toContain(value);
    const body = (await rig.codec.decodeUnchecked(letter.value!)) as Record<string, any>;
    expect(isEncryptedValue(body.payload.data.customer_info.name)).toBe(true);
    expect(isEncryptedValue(body.context.historical_data_summary)).toBe(true);
    const opened = decryptPersonalData(body, new KeyRingFile(keyRingPath)) as Record<string, any>;
    expect(opened.payload.data.customer_info).toEqual(clear.payload.data.customer_info);
    expect(opened.context.user_interaction_history).toEqual(clear.context.user_interaction_history);
    // The sender's signature, if it had one, no longer covers these bytes: the message is evidence, not a replay.
    expect(opened.metadata.message_id).toBe(clear.metadata.message_id);

    // A later handoff of the same task, encrypted in Java, is routed: the clear one was taken and refused.
    const later = transfer(taskId);
    const sealed = encryptedInJava(later, keyRingPath);
    expect(isEncryptedValue(sealed.payload.data.customer_info.name)).toBe(true);
    expect(decryptPersonalData(sealed, new KeyRingFile(keyRingPath))).toEqual(later);
    await rig.publisher.publish(rig.topics.inbound, sealed as HandoffMessage);
    const routed = await waitFor(
      () => inbox.records.find((record) => record.headers.ce_id === later.metadata.message_id),
      { description: 'the encrypted handoff in the inbox', timeoutMs: 30_000 },
    );
    const published = (await readTopicLog(inject('kafkaBrokers'), rig.topics.inbound)).committed.find(
      (record) => record.headers.ce_id === later.metadata.message_id,
    );
    expect(routed.value).toEqual(published?.value);
    expect(inbox.records.filter((record) => record.key === taskId)).toHaveLength(1);
    const forwarded = inbox.records.map((record) => record.value!.toString('latin1'));
    for (const value of CLEAR_VALUES) for (const text of forwarded) expect(text).not.toContain(value);
  });
});
