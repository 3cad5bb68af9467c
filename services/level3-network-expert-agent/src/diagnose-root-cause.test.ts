import { describe, expect, it } from 'vitest';
import type { EscalationData } from '@baton/protocol';
import { diagnoseRootCause } from './diagnose-root-cause.js';

const escalation = (technical_details: EscalationData['technical_details']): EscalationData => ({
  issue_category: 'NETWORK_CONNECTIVITY',
  severity: 'CRITICAL',
  customer_info: { user_id: '[email protected]', name: 'John Doe', contact_number: '+1-555-123-4567' },
  technical_details,
});

describe('diagnoseRootCause', () => {
  it('blames the reference escalation’s RouterX-Pro firmware and pushes the fixed release', () => {
    expect(
      diagnoseRootCause(
        escalation({
          router_model: 'RouterX-Pro',
          isp: 'GlobalNet',
          symptoms: 'Intermittent disconnections, unable to access specific websites.',
          logs_attached: true,
          log_references: ['log_file_id_123'],
        }),
      ),
    ).toEqual({
      rootCause:
        'RouterX-Pro router: a DHCP lease-renewal defect in its firmware, which drops the connection about once an hour',
      effect: 'push_firmware_update',
      args: { user_id: '[email protected]', router_model: 'RouterX-Pro', firmware_version: '4.2.1' },
      reply:
        'We found the cause of your connection problem: your RouterX-Pro router has a DHCP lease-renewal defect in its firmware, which drops the connection about once an hour. We are installing firmware 4.2.1 on it remotely; it restarts once by itself and the drops stop.',
    });
  });

  it('knows the model whatever its case', () => {
    expect(diagnoseRootCause(escalation({ router_model: 'routerx-PRO' })).effect).toBe('push_firmware_update');
  });

  it('sends a technician, with the ISP, when the router has no known defect', () => {
    expect(diagnoseRootCause(escalation({ router_model: 'HomeBox 3', isp: 'GlobalNet' }))).toEqual({
      rootCause: 'a fault on the GlobalNet line into the premises',
      effect: 'schedule_field_visit',
      args: { user_id: '[email protected]', isp: 'GlobalNet' },
      reply:
        'We found the cause of your connection problem: a fault on the GlobalNet line into your home. A technician will visit to repair it; we will call you to agree a time.',
    });
  });

  it('sends a technician when nothing is known about the router or the ISP', () => {
    expect(diagnoseRootCause(escalation({ symptoms: 'My internet keeps dropping every hour.' }))).toEqual({
      rootCause: 'a fault on the line into the premises',
      effect: 'schedule_field_visit',
      args: { user_id: '[email protected]' },
      reply:
        'We found the cause of your connection problem: a fault on the line into your home. A technician will visit to repair it; we will call you to agree a time.',
    });
  });
});
