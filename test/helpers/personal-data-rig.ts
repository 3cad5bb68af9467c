import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyRingEntry, keyRingFileText } from '@baton/field-encryption';
import { startBatonRig, type BatonRig } from './baton-rig.js';

/** A router on topics of its own, and the key ring the services that may read personal data are given. */
export interface PersonalDataRig {
  rig: BatonRig;
  keyRingPath: string;
  /** The environment of a service given the key ring. */
  keyRingEnv: Record<string, string>;
  /** Stops the rig (resolving with the exit codes) and removes the key ring. */
  stop(): Promise<Record<string, number | null>>;
}

/**
 * A fresh key ring (one key, 0600) in a folder of its own, and a router whose routing table knows
 * only `agents` and has no default: a handoff for any other recipient is dead-lettered. The
 * services of the test are added to the rig by the test, with or without `keyRingEnv`.
 */
export async function startPersonalDataRig(
  name: string,
  agents: readonly string[],
  options: { routerEnv?: (keyRingEnv: Record<string, string>) => Record<string, string> } = {},
): Promise<PersonalDataRig> {
  const dir = mkdtempSync(join(tmpdir(), `baton-${name}-`));
  const keyRingPath = join(dir, 'pii-keyring.json');
  writeFileSync(keyRingPath, keyRingFileText([generateKeyRingEntry('pii-test')]), { mode: 0o600 });
  const table = join(dir, 'routing-table.yaml');
  writeFileSync(table, `version: 1\nagents: [${agents.join(', ')}]\nrules: []\n`);
  const keyRingEnv = { BATON_PII_KEYRING_FILE: keyRingPath };
  const rig = await startBatonRig({
    name,
    agents: [],
    routerEnv: { ROUTING_TABLE: table, ...options.routerEnv?.(keyRingEnv) },
  });
  return {
    rig,
    keyRingPath,
    keyRingEnv,
    async stop() {
      const codes = await rig.stop();
      rmSync(dir, { recursive: true, force: true });
      return codes;
    },
  };
}

const require = createRequire(import.meta.url);
/** The reference escalation: its context and customer hold the personal values the tests look for. */
export const REFERENCE_ESCALATION = require('@baton/schemas/fixtures/seed-000-escalation-full.json') as Record<
  string,
  any
>;

/**
 * Triage handing a task to `recipient` with the reference escalation's customer and conversation:
 * only the customer's own words (encrypted in transit) say it is a network fault.
 */
export function customerTransfer(taskId: string, recipient: string): Record<string, unknown> {
  const { context, payload } = REFERENCE_ESCALATION;
  return {
    metadata: { sender_id: 'triage_agent', recipient_id: recipient, task_id: taskId },
    context: {
      workflow_state: 'TRANSFERRED',
      previous_actions: context.previous_actions,
      historical_data_summary: context.historical_data_summary,
      user_interaction_history: context.user_interaction_history,
    },
    payload: {
      handoff_type: 'TASK_TRANSFER',
      data: {
        issue_category: 'UNCLASSIFIED',
        task_summary: 'The customer asks for help with their service.',
        customer_info: payload.data.customer_info,
      },
    },
  };
}
