import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLedgerEntry } from '@baton/agent-sdk';
import { startBatonRig, type BatonRig } from './baton-rig.js';
import type { RecordCollector } from './record-collector.js';
import type { ServiceProcess } from './service-process.js';

export const PROBE_AGENT = 'probe_agent';

/** One credential per role, and a publisher bound to the probe handoffs' sender; the gateway is started with all four. */
export const GATEWAY_TOKENS = {
  operator: 'ops-secret-token',
  publisher: 'pub-secret-token',
  viewer: 'view-secret-token',
  boundPublisher: 'bound-secret-token',
} as const;

const API_KEYS = [
  `ops:${GATEWAY_TOKENS.operator}:operator`,
  `pub:${GATEWAY_TOKENS.publisher}:publisher+viewer`,
  `watcher:${GATEWAY_TOKENS.viewer}:viewer`,
  `console:${GATEWAY_TOKENS.boundPublisher}:publisher+viewer:senders=ops_console`,
].join(',');

export interface ApiAnswer {
  status: number;
  // Answers are checked field by field against the API's documented shapes.
  body: any;
  headers: Headers;
}

/**
 * A router that sends everything to the probe agent, the probe agent, and the gateway, each its
 * own process on topics of their own; with a client for the gateway's API and the ledger of what
 * the probe agent observed.
 */
export interface GatewayRig {
  rig: BatonRig;
  gateway: ServiceProcess;
  /** A folder removed at stop, for outage flag files. */
  workDir: string;
  api(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<ApiAnswer>;
  /** The seq numbers the probe agent observed for `taskId`, in ledger order. */
  observed(taskId: string): number[];
  /** A handoff as a client sends it (the gateway fills the rest) that the probe agent runs as `script`. */
  probeHandoff(taskId: string, script: Record<string, unknown>, retryCount?: number): Record<string, unknown>;
  stop(): Promise<Record<string, number | null>>;
}

export async function startGatewayRig(name: string): Promise<GatewayRig> {
  const workDir = mkdtempSync(join(tmpdir(), `baton-${name}-`));
  const table = join(workDir, 'routing-table.yaml');
  writeFileSync(table, `version: 1\nagents: [${PROBE_AGENT}]\nrules: []\ndefault: ${PROBE_AGENT}\n`);
  const rig = await startBatonRig({ name, agents: [], routerEnv: { ROUTING_TABLE: table } });
  await rig.addProcess('probe', 'test/fixtures/probe-agent/main.ts');
  const gateway = await rig.addProcess('gateway', 'services/gateway/src/main.ts', { BATON_API_KEYS: API_KEYS });
  const ledger: RecordCollector = await rig.collect(rig.topics.ledger);
  return {
    rig,
    gateway,
    workDir,
    async api(method, path, options = {}) {
      const response = await fetch(`${gateway.address}${path}`, {
        method,
        headers: {
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
    },
    observed: (taskId) =>
      ledger.records
        .filter((record) => record.key === taskId)
        .map((record) => parseLedgerEntry(record.value as Buffer))
        .filter((entry) => entry.effect === 'observed')
        .map((entry) => (entry.args as { seq: number }).seq),
    probeHandoff: (taskId, script, retryCount = 3) => ({
      metadata: { sender_id: 'ops_console', recipient_id: PROBE_AGENT, task_id: taskId },
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: JSON.stringify(script) } },
      instructions: { failure_handling_strategy: { retry_count: retryCount } },
    }),
    async stop() {
      const codes = await rig.stop();
      rmSync(workDir, { recursive: true, force: true });
      return codes;
    },
  };
}
