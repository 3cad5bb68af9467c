import { fileURLToPath } from 'node:url';
import { loadRegistryConfig } from '@baton/agent-registry';
import { buildHandoffService, createLogger, loadServiceConfig, runService } from '@baton/runtime';
import { routerService } from './app.js';
import { loadRoutingTable } from './routing/index.js';

const DEFAULT_TABLE = fileURLToPath(new URL('../routing-table.yaml', import.meta.url));

const logger = createLogger('router');
await runService(async () => {
  const config = loadServiceConfig('router');
  // A table with an unknown target or an unreachable rule stops the router here, naming the rule.
  const table = await loadRoutingTable(process.env.ROUTING_TABLE ?? DEFAULT_TABLE);
  return buildHandoffService(routerService(table, { registry: loadRegistryConfig() }), config).service;
}, logger);
