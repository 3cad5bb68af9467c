import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KeyRingFile, decryptPersonalData } from '@baton/field-encryption';
import { isEncryptedValue } from '@baton/protocol';
import {
  REFERENCE_ESCALATION as SEED,
  customerTransfer,
  startPersonalDataRig,
  type PersonalDataRig,
} from './helpers/personal-data-rig.js';
import { readTopicLog } from './helpers/read-topic.js';
import { uniqueName, waitFor, type BatonRig, type RecordCollector, type ServiceProcess } from './helpers/index.js';

/**
 * A negotiated handoff's context stored by reference holds its personal fields encrypted, end to
 * end on the real broker and registry: the gateway (holding the key ring) opens a negotiation whose
 * context is over its inline limit, the tracker (without the key ring) sends the reference on, and
 * the customer service agent (holding it) takes the context over and acts on the clear values. A
 * plain consumer of the contexts topic sees none of them.
 */

const CUSTOMER_SERVICE = 'customer_service_agent';
const TECHNICAL_SUPPORT = 'technical_support_agent_pool';
/** Every personal value of the seed example the offered handoff carries. */
const SEED_PERSONAL_VALUES = [
  'John Doe',
  '+1-555-123-4567',
  'My internet keeps dropping every hour.',
  'Please restart your router and modem.',
  "User 'John Doe' reported",
];
const TOKENS = { publisher: 'pii-contexts-publisher-token', viewer: 'pii-contexts-viewer-token' };
/** Far below the seed's context: every negotiation the gateway opens stores its context by reference. */
const INLINE_MAX_BYTES = 1_024;

let pii: PersonalDataRig;
let keyRingPath: string;
let rig: BatonRig;
let gateway: ServiceProcess;
let supportInbox: RecordCollector;
const taskId = uniqueName('pii-stored-context');

beforeAll(async () => {
  pii = await startPersonalDataRig('pii-contexts', [CUSTOMER_SERVICE, TECHNICAL_SUPPORT]);
  ({ rig, keyRingPath } = pii);
  // The tracker sends the context's reference on: it holds no key ring and needs none.
  await rig.addProcess('tracker', 'services/tracker/src/main.ts');
  await rig.addProcess('customer-service-agent', 'services/customer-service-agent/src/main.ts', pii.keyRingEnv);
  gateway = await rig.addProcess('gateway', 'services/gateway/src/main.ts', {
    ...pii.keyRingEnv,
    BATON_API_KEYS: `pub:${TOKENS.publisher}:publisher,watcher:${TOKENS.viewer}:viewer`,
    BATON_CONTEXT_INLINE_MAX_BYTES: String(INLINE_MAX_BYTES),
  });
  supportInbox = await rig.collect(rig.topics.agentInbox(TECHNICAL_SUPPORT));
}, 180_000);

afterAll(async () => {
  const codes = await pii?.stop();
  expect(codes?.gateway).toBe(0);
});

describe('personal data in contexts stored by reference', () => {
  it('stores ciphertext in the contexts topic, and the receiver holding the key ring acts on the clear values', async () => {
    // Customer service escalates a network fault that only the customer's own words describe.
    const handoff = customerTransfer(taskId, CUSTOMER_SERVICE);
    const response = await fetch(`${gateway.address}/v1/negotiations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.publisher}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handoff, desired_agent_type: 'CustomerServiceAgent', reason: 'needs customer service' }),
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ task_id: taskId, context_mode: 'by-reference' });
    await waitFor(() => supportInbox.records.some((record) => record.key === taskId), {
      description: 'customer service to take the context over and escalate the network fault to technical support',
      timeoutMs: 60_000,
    });

    // Every record of the contexts topic, committed or not, as a plain consumer reads it.
    const stored = (await readTopicLog(inject('kafkaBrokers'), rig.topics.contexts)).written;
    expect(stored).toHaveLength(1);
    const text = stored[0]?.value?.toString('utf8') ?? '';
    for (const value of SEED_PERSONAL_VALUES) expect(text).not.toContain(value);
    const context = JSON.parse(text) as Record<string, any>;
    expect(isEncryptedValue(context.task_description)).toBe(true);
    expect(isEncryptedValue(context.handoff.payload.data.customer_info.name)).toBe(true);
    expect(isEncryptedValue(context.handoff.payload.data.customer_info.contact_number)).toBe(true);
    expect(context.handoff.payload.data.customer_info.user_id).toBe(SEED.payload.data.customer_info.user_id);
    // In the codecs' format: the key ring opens it to the handoff the gateway was given.
    const clearContext = decryptPersonalData(context, new KeyRingFile(keyRingPath)) as Record<string, any>;
    expect(clearContext.handoff.payload.data.customer_info).toEqual(SEED.payload.data.customer_info);
    expect(clearContext.handoff.context.user_interaction_history).toEqual(SEED.context.user_interaction_history);

    // The negotiation completed: the receiver took the context over, then escalated on what it read.
    let task: any;
    await waitFor(
      async () => {
        const view = await fetch(`${gateway.address}/v1/tasks/${taskId}`, {
          headers: { authorization: `Bearer ${TOKENS.viewer}` },
        });
        task = await view.json();
        return task?.events?.some((event: any) => event.kind === 'outcome' && event.outcome === 'ESCALATED');
      },
      { description: 'the gateway’s view of the task to show the escalation' },
    );
    expect(task.negotiations).toMatchObject([
      {
        context_mode: 'by-reference',
        outcome: 'COMPLETED',
        attempts: [{ receiver: CUSTOMER_SERVICE, via: 'target', receiver_state: 'Active' }],
      },
    ]);
    expect(task.events).toContainEqual(
      expect.objectContaining({ kind: 'outcome', outcome: 'ESCALATED', agent_id: CUSTOMER_SERVICE }),
    );
    const [escalation] = await rig.handoffs(supportInbox, taskId);
    const clear = decryptPersonalData(escalation, new KeyRingFile(keyRingPath)) as Record<string, any>;
    expect(clear.payload.data.customer_info).toEqual(SEED.payload.data.customer_info);
    // The customer's words, which the agent read in clear from the stored context.
    expect(clear.payload.data.technical_details.symptoms).toBe(
      'The customer asks for help with their service. / My internet keeps dropping every hour.',
    );
  }, 120_000);
});
