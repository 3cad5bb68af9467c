import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { HandoffMessage, HandoffType } from '@baton/protocol';
import { describe, expect, it } from 'vitest';
import { authorizeDispatch, loadRoutingTable, loadSenderPolicy, routeHandoff } from '@baton/routing';

const require = createRequire(import.meta.url);
const TABLE_PATH = fileURLToPath(new URL('../routing-table.yaml', import.meta.url));
const POLICY_PATH = fileURLToPath(new URL('../authorization-policy.yaml', import.meta.url));

const FIXTURES: Partial<Record<HandoffType, string>> = {
  TASK_TRANSFER: 'task-transfer.example.json',
  ESCALATION: 'seed-000-escalation-full.json',
  APPROVAL_REQUEST: 'approval-request.example.json',
  PROVIDE_INFORMATION: 'provide-information.example.json',
  NOTIFICATION: 'notification.example.json',
};

/** An example handoff of `type` from `sender` addressed to `recipient`. */
function handoff(sender: string, type: HandoffType, recipient: string): HandoffMessage {
  const example = structuredClone(require(`@baton/schemas/fixtures/${FIXTURES[type]}`)) as HandoffMessage;
  example.metadata.sender_id = sender;
  example.metadata.recipient_id = recipient;
  return example;
}

// What the shipped agents' handlers send (services/*/src), and what npm run samples publishes.
const FLEET_HANDOFFS: [sender: string, type: HandoffType, recipient: string][] = [
  ['user', 'TASK_TRANSFER', 'triage_agent'],
  ['user', 'TASK_TRANSFER', 'planner_agent'],
  ['customer_service_agent_001', 'ESCALATION', 'technical_support_agent_pool'],
  ['customer_service_agent', 'ESCALATION', 'technical_support_agent_pool'],
  ['technical_support_agent_pool', 'ESCALATION', 'level3_network_expert_agent_pool'],
  ['technical_support_agent_pool', 'ESCALATION', 'human_agent'],
  ['triage_agent', 'TASK_TRANSFER', 'sales_agent'],
  ['triage_agent', 'TASK_TRANSFER', 'issues_and_repairs_agent'],
  ['triage_agent', 'ESCALATION', 'technical_support_agent_pool'],
  ['triage_agent', 'ESCALATION', 'human_agent'],
  ['sales_agent', 'TASK_TRANSFER', 'triage_agent'],
  ['issues_and_repairs_agent', 'TASK_TRANSFER', 'triage_agent'],
  ['issues_and_repairs_agent', 'APPROVAL_REQUEST', 'human_agent'],
  ['human_agent', 'PROVIDE_INFORMATION', 'issues_and_repairs_agent'],
  ['human_agent', 'PROVIDE_INFORMATION', 'triage_agent'],
  ['human_agent', 'PROVIDE_INFORMATION', 'technical_support_agent_pool'],
  ['planner_agent', 'TASK_TRANSFER', 'worker_agent'],
  ['worker_agent', 'TASK_TRANSFER', 'compiler_agent'],
  ['compiler_agent', 'TASK_TRANSFER', 'reviewer_agent'],
  ['reviewer_agent', 'TASK_TRANSFER', 'worker_agent'],
  ['reviewer_agent', 'NOTIFICATION', 'planner_agent'],
];

const OUT_OF_LANE: [sender: string, type: HandoffType, recipient: string][] = [
  ['user', 'ESCALATION', 'human_agent'],
  ['user', 'TASK_TRANSFER', 'sales_agent'],
  ['sales_agent', 'APPROVAL_REQUEST', 'human_agent'],
  ['worker_agent', 'NOTIFICATION', 'planner_agent'],
  ['someone_else', 'TASK_TRANSFER', 'triage_agent'],
];

async function decide([sender, type, recipient]: [string, HandoffType, string]) {
  const table = await loadRoutingTable(TABLE_PATH);
  const policy = await loadSenderPolicy(POLICY_PATH, table);
  const message = handoff(sender, type, recipient);
  const decision = routeHandoff(table, message);
  if (decision.kind !== 'routed') throw new Error(decision.reason);
  expect(decision.targets).toEqual([recipient]);
  return authorizeDispatch(policy, message, decision).kind;
}

describe("the repository's sender policy", () => {
  it('loads against the routing table without problems', async () => {
    const policy = await loadSenderPolicy(POLICY_PATH, await loadRoutingTable(TABLE_PATH));
    expect(policy.rules.map((rule) => rule.id)).toEqual([
      'customers-start-tasks',
      'customer-service-escalates',
      'technical-support-escalates',
      'triage-transfers',
      'triage-escalates',
      'hand-back-to-triage',
      'refund-approvals',
      'human-answers',
      'workflow-subtasks',
      'subtask-reports',
    ]);
  });

  it.each(FLEET_HANDOFFS)('lets %s send %s to %s, as the shipped agents and samples do', async (...flow) => {
    expect(await decide(flow)).toBe('allowed');
  });

  it.each(OUT_OF_LANE)('refuses %s sending %s to %s', async (...flow) => {
    expect(await decide(flow)).toBe('refused');
  });
});
