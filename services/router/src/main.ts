import { fileURLToPath } from 'node:url';
import { loadRegistryConfig } from '@baton/agent-registry';
import { optionalSetting } from '@baton/errors';
import { buildHandoffService, createLogger, loadServiceConfig, personalDataKeyRing, runService } from '@baton/runtime';
import { routerService } from './app.js';
import { loadRoutingTable, loadSenderPolicy } from '@baton/routing';
import { loadPersonalDataConfig } from './personal-data/personal-data-config.js';

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
  const personalData = loadPersonalDataConfig(process.env);
  // Only to encrypt what it refuses: given to the chassis, the key ring would decrypt every handoff
  // the router reads, and the router must see whether the fields arrived encrypted.
  const personalDataKeyRingFile = personalData.required ? personalData.keyRingFile : undefined;
  const keyRing = personalDataKeyRing({ personalDataKeyRingFile }, logger);
  logger.info(
    { event: 'personal-data.policy', required: personalData.required, keys: keyRing?.keyIds() ?? [] },
    personalData.required
      ? 'BATON_PII_REQUIRED=true: a handoff whose personal fields arrive in clear is dead-lettered with them encrypted'
      : 'personal fields are forwarded as they arrive (BATON_PII_REQUIRED is not true)',
  );
  const service = routerService(table, { registry: loadRegistryConfig(), policy, personalDataKeyRing: keyRing });
  return buildHandoffService(service, { ...config, personalDataKeyRingFile: undefined }).service;
}, logger);
