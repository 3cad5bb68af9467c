import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bundleServices } from './service-bundle.js';
import { discoverServices, serviceEntry } from './service-entries.js';
import { startService, type Echo, type ProcessOptions, type RunningService } from './service-supervisor.js';

/** The sender policy the local fleet's router enforces, written for the agents of services/. */
const LOCAL_SENDER_POLICY = fileURLToPath(new URL('../../services/router/authorization-policy.yaml', import.meta.url));

/** The routing table the local router reads by default; the gateway's trust gate checks the policy against it. */
const LOCAL_ROUTING_TABLE = fileURLToPath(new URL('../../services/router/routing-table.yaml', import.meta.url));

/**
 * What the router and the gateway are given besides the common environment: the local sender
 * policy, unless AUTHORIZATION_POLICY names another (set empty, it turns the check off). The
 * gateway judges replays into an agent inbox by the same policy, so it gets the routing table too.
 */
function policyEnvironment(name: string): Record<string, string> {
  const policy = { AUTHORIZATION_POLICY: process.env.AUTHORIZATION_POLICY ?? LOCAL_SENDER_POLICY };
  if (name === 'router') return policy;
  if (name === 'gateway') return { ...policy, ROUTING_TABLE: process.env.ROUTING_TABLE ?? LOCAL_ROUTING_TABLE };
  return {};
}

export interface FleetOptions {
  /** What every service is given: KAFKA_BROKERS, SCHEMA_REGISTRY_URL, BATON_TOPIC_PREFIX. */
  env: Record<string, string>;
  /** What the gateway is given besides `env`: its port and its credentials. */
  gatewayEnv: Record<string, string>;
  /** What each service is given besides `env` (its Kafka principal, say). @default nothing */
  serviceEnv?: (service: string) => Record<string, string>;
  /** Where each service's JSON log lines go, as `startProcess` takes it. @default true: stdout */
  echo?: (service: string) => Echo;
  /** Each service's process options (its stderr, its process group), as `startProcess` takes them. */
  processOptions?: (service: string) => ProcessOptions;
  /** Told of each service as it is spawned, before it has started. */
  onSpawned?: (service: RunningService) => void;
  /** Told once every service has been named, before the first is spawned. */
  onServices?: (names: readonly string[]) => void;
  /** Once aborted, no further service is spawned and the start rejects; those spawned are the caller's to stop. */
  signal?: AbortSignal;
}

/**
 * The sender ids the credential `npm start` makes may publish as: the senders from outside the
 * agents that the local sender policy knows (services/router/authorization-policy.yaml's
 * external_senders), whom the samples and the reference escalation send as. Not an agent's: a
 * client of the gateway cannot pass itself off as the router or the triage agent.
 */
export const LOCAL_CREDENTIAL_SENDERS = ['user', 'customer_service_agent_001'] as const;

/**
 * The gateway's part of the fleet's environment: the port `port` (where the CLI looks by default,
 * unless 0), and a credential with every role (personal-data too), bound to LOCAL_CREDENTIAL_SENDERS,
 * made for this run unless `apiKeys` names the credentials; `token` is that credential's token,
 * undefined when `apiKeys` was given.
 */
export function gatewayEnvironment(
  port: string,
  apiKeys: string | undefined,
): { env: Record<string, string>; token?: string } {
  if (apiKeys) return { env: { HTTP_PORT: port, BATON_API_KEYS: apiKeys } };
  const token = randomBytes(18).toString('base64url');
  // The one running Baton here holds the key ring anyway: its credential sees personal data too.
  return {
    env: {
      HTTP_PORT: port,
      BATON_API_KEYS: `local:${token}:viewer+publisher+operator+personal-data:senders=${LOCAL_CREDENTIAL_SENDERS.join('|')}`,
    },
    token,
  };
}

/**
 * Starts what `npm start` runs: every service of services/, each its own process, the router first
 * (it creates the agents' inboxes, so agents find them when they start) with the local sender
 * policy, then the others side by side. Each one is added to `running` as it is spawned, so a
 * caller stopping midway (a signal, a failed start) stops those too. Resolves with each service's
 * HTTP address once all have started.
 */
export async function startFleet(running: RunningService[], options: FleetOptions): Promise<Record<string, string>> {
  const { env, gatewayEnv, serviceEnv = () => ({}), echo = () => true, processOptions = () => ({}) } = options;
  const names = await discoverServices();
  options.onServices?.(names);
  await bundleServices(names.map(serviceEntry));
  const spawn = (name: string): RunningService => {
    options.signal?.throwIfAborted();
    const service = startService(
      name,
      {
        ...env,
        ...serviceEnv(name),
        ...(name === 'gateway' ? gatewayEnv : {}),
        ...policyEnvironment(name),
      },
      echo(name),
      processOptions(name),
    );
    running.push(service);
    options.onSpawned?.(service);
    return service;
  };
  await spawn('router').started;
  options.signal?.throwIfAborted();
  names.filter((name) => name !== 'router').forEach(spawn);
  return Object.fromEntries(
    await Promise.all(running.map(async (service) => [service.name, await service.started] as const)),
  );
}
