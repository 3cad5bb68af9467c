import { fileURLToPath } from 'node:url';
import { loadRegistryConfig } from '@baton/agent-registry';
import { optionalSetting } from '@baton/errors';
import { buildHandoffService, createLogger, loadServiceConfig, runService } from '@baton/runtime';
import { routerService } from './app.js';
import { loadRoutingTable, loadSenderPolicy } from '@baton/routing';

const DEFAULT_TABLE = fileURLToPath(new URL('../routing-table.yaml', import.meta.url));
const logger = createLogger('router');

await runService(async () => {
  const config = loadServiceConfig('router');
  // A table with an unknown target or an unreachable rule stops the router here, naming the rule.
  const table = await loadRoutingTable(process.env.ROUTING_TABLE ?? DEFAULT_TABLE);
  // So does a sender policy with an unknown sender or recipient, or a rule another one covers.
  const policyPath = optionalSetting(process.env, 'AUTHORIZATION_POLICY');
  const policy = policyPath === undefined ? undefined : await loadSenderPolicy(policyPath, table);
  if (policy === undefined) {
    logger.warn(
      { event: 'authorization.disabled' },
      'no sender policy (AUTHORIZATION_POLICY is unset): every sender may send every handoff_type to every agent',
    );
  } else {
    logger.info(
      { event: 'authorization.loaded', source: policyPath, rules: policy.rules.length },
      'sender policy loaded: a handoff no rule allows is dead-lettered with NOT_AUTHORIZED',
    );
  }
  return buildHandoffService(routerService(table, { registry: loadRegistryConfig(), policy }), config).service;
}, logger);
