import { describe, expect, it } from 'vitest';
import type { EscalationData } from '@baton/protocol';
import { beyondTier2, decideEscalation } from './decide-escalation.js';

// The escalation of the reference example message.
const seed: EscalationData = {
  issue_category: 'NETWORK_CONNECTIVITY',
  severity: 'CRITICAL',
  customer_info: { user_id: '[email protected]', name: 'John Doe', contact_number: '+1-555-123-4567' },
  technical_details: {
    router_model: 'RouterX-Pro',
    isp: 'GlobalNet',
    symptoms: 'Intermittent disconnections, unable to access specific websites.',
    logs_attached: true,
    log_references: ['log_file_id_123'],
  },
};
const seedStrategy = { escalate_to: 'level3_network_expert_agent_pool', fallback_action: 'notify_customer_of_delay' };

const simple = (
  technical_details: EscalationData['technical_details'],
  severity: EscalationData['severity'] = 'MEDIUM',
) => ({
  ...seed,
  severity,
  technical_details,
});

describe('beyondTier2', () => {
  it('gives every reason the reference escalation is beyond tier 2', () => {
    expect(beyondTier2(seed)).toEqual([
      'severity is CRITICAL',
      'logs log_file_id_123 need expert analysis',
      'symptoms describe intermittent drops',
    ]);
  });

  it.each(['My internet keeps dropping every hour.', 'Connection drops at night.', 'TV stream cuts out.'])(
    'counts as intermittent: %s',
    (symptoms) => {
      expect(beyondTier2(simple({ symptoms }))).toEqual(['symptoms describe intermittent drops']);
    },
  );

  it('needs log references, not just the flag, to send logs up', () => {
    expect(beyondTier2(simple({ symptoms: 'Slow Wi-Fi.', logs_attached: true }))).toEqual([]);
    expect(beyondTier2(simple({ symptoms: 'Slow Wi-Fi.', logs_attached: false, log_references: ['l1'] }))).toEqual([]);
    expect(beyondTier2(simple({ logs_attached: true, log_references: ['l1', 'l2'] }))).toEqual([
      'logs l1, l2 need expert analysis',
    ]);
  });

  it('leaves a HIGH, log-free, steady fault to tier 2', () => {
    expect(beyondTier2(simple({ symptoms: 'No internet since the storm.' }, 'HIGH'))).toEqual([]);
  });
});

describe('decideEscalation', () => {
  it('runs a remote diagnostic and escalates the reference escalation to its escalate_to, telling the customer of the delay', () => {
    expect(decideEscalation(seed, seedStrategy)).toEqual({
      kind: 'escalate',
      action: {
        action_type: 'REMOTE_DIAGNOSTIC',
        details:
          'Remote diagnostic run; beyond tier 2: severity is CRITICAL; logs log_file_id_123 need expert analysis; symptoms describe intermittent drops.',
      },
      notice:
        'Your connection problem needs a network specialist, so resolving it will take a little longer. We will be in touch as soon as we know more.',
    });
  });

  it('hands to a human when the message names nowhere to escalate, and stays quiet without a fallback_action', () => {
    expect(decideEscalation(seed, undefined)).toEqual({
      kind: 'escalate',
      action: {
        action_type: 'REMOTE_DIAGNOSTIC',
        details:
          'Remote diagnostic run; beyond tier 2: severity is CRITICAL; logs log_file_id_123 need expert analysis; symptoms describe intermittent drops.',
      },
      to: 'human_agent',
    });
    expect(decideEscalation(seed, { fallback_action: 'notify_customer_of_delay' })).toMatchObject({
      to: 'human_agent',
      notice: expect.any(String),
    });
  });

  it('resolves what tier 2 can with the playbook’s fix', () => {
    expect(decideEscalation(simple({ symptoms: 'Slow Wi-Fi in the bedroom.' }), seedStrategy)).toEqual({
      kind: 'resolve',
      reply:
        'Your line tests at full speed, so the slowness comes from a crowded Wi-Fi channel. Connect your devices to your router’s 5 GHz network and keep the router in the open, away from thick walls.',
      summary: 'Resolved at tier 2: WIFI_CONGESTION.',
    });
  });
});
