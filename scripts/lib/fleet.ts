import { randomBytes } from 'node:crypto';
import { bundleServices } from './service-bundle.js';
import { discoverServices, serviceEntry } from './service-entries.js';
import { startService, type Echo, type RunningService } from './service-supervisor.js';

export interface FleetOptions {
  /** What every service is given: KAFKA_BROKERS, SCHEMA_REGISTRY_URL, BATON_TOPIC_PREFIX. */
  env: Record<string, string>;
  /** What the gateway is given besides `env`: its port and its credentials. */
  gatewayEnv: Record<string, string>;
  /** Where each service's JSON log lines go, as `startProcess` takes it. @default true: stdout */
  echo?: (service: string) => Echo;
}

/**
 * The gateway's part of the fleet's environment: the port `port` (where the CLI looks by default,
 * unless 0), and a credential with every role made for this run unless `apiKeys` names the
 * credentials; `token` is that credential's token, undefined when `apiKeys` was given.
 */
export function gatewayEnvironment(
  port: string,
  apiKeys: string | undefined,
): { env: Record<string, string>; token?: string } {
  if (apiKeys) return { env: { HTTP_PORT: port, BATON_API_KEYS: apiKeys } };
  const token = randomBytes(18).toString('base64url');
  return { env: { HTTP_PORT: port, BATON_API_KEYS: `local:${token}:viewer+publisher+operator` }, token };
}

/**
 * Starts what `npm start` runs: every service of services/, each its own process, the router first
 * (it creates the agents' inboxes, so agents find them when they start), then the others side by
 * side. Each one is added to `running` as it is spawned, so a caller stopping midway (a signal, a
 * failed start) stops those too. Resolves with each service's HTTP address once all have started.
 */
export async function startFleet(running: RunningService[], options: FleetOptions): Promise<Record<string, string>> {
  const { env, gatewayEnv, echo = () => true } = options;
  const names = await discoverServices();
  await bundleServices(names.map(serviceEntry));
  const router = startService('router', env, echo('router'));
  running.push(router);
  await router.started;
  running.push(
    ...names
      .filter((name) => name !== 'router')
      .map((name) => startService(name, name === 'gateway' ? { ...env, ...gatewayEnv } : env, echo(name))),
  );
  return Object.fromEntries(
    await Promise.all(running.map(async (service) => [service.name, await service.started] as const)),
  );
}
