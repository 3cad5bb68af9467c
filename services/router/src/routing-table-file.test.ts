import { fileURLToPath } from 'node:url';
import { buildHandoff } from '@baton/protocol';
import { describe, expect, it } from 'vitest';
import { loadRoutingTable, routeHandoff } from '@baton/routing';

const TABLE_PATH = fileURLToPath(new URL('../routing-table.yaml', import.meta.url));

/** The reference example escalation, addressed to `recipient_id`. */
function seedEscalation(recipient_id: string) {
  return buildHandoff({
    metadata: { sender_id: 'customer_service_agent_001', recipient_id, task_id: 'task-abc-456', priority: 'HIGH' },
    payload: {
      handoff_type: 'ESCALATION',
      data: {
        issue_category: 'NETWORK_CONNECTIVITY',
        severity: 'CRITICAL',
        customer_info: { user_id: 'john@example.com', name: 'John Doe' },
        technical_details: { router_model: 'RouterX-Pro', isp: 'GlobalNet' },
      },
    },
  });
}

describe("the repository's routing table", () => {
  it('loads without problems', async () => {
    const table = await loadRoutingTable(TABLE_PATH);
    expect(table.rules.map((rule) => rule.id)).toEqual([
      'technical-escalations',
      'approvals',
      'sales',
      'issues-and-repairs',
      'general-support',
      'workflows',
    ]);
    expect(table.defaultTarget).toBe('triage_agent');
    expect(table).toMatchObject({ discovery: true, fallback: undefined });
  });

  it('routes the reference escalation to technical support, by recipient or by rule', async () => {
    const table = await loadRoutingTable(TABLE_PATH);
    expect(routeHandoff(table, seedEscalation('technical_support_agent_pool'))).toEqual({
      kind: 'routed',
      targets: ['technical_support_agent_pool'],
      ruleId: 'recipient',
    });
    // network_team is no agent: the rule decides, and the decision says the address got nothing.
    expect(routeHandoff(table, seedEscalation('network_team'))).toEqual({
      kind: 'routed',
      targets: ['technical_support_agent_pool'],
      ruleId: 'technical-escalations',
      undelivered: [{ agent: 'network_team', why: 'unknown' }],
    });
  });
});
