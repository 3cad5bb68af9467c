/**
 * `npm start`: Baton on this machine. Brings up Kafka and the schema registry (embedded local ones
 * when KAFKA_BROKERS is unset), then the router, every agent and the gateway as separate
 * processes; prints where to publish and how to watch; on Ctrl-C, SIGTERM or SIGHUP, or when the
 * process that started it goes away, stops the services (they drain and commit) and then what it
 * started.
 *
 * `--brokers 3` (or BATON_START_BROKERS=3) starts a local cluster of three brokers instead of one,
 * every topic replicated three times with two in sync for a write.
 *
 * `--secure` (or BATON_START_SECURE=1) starts the local broker secured instead: SASL_SSL and mutual
 * TLS listeners only, the StandardAuthorizer on, each service logging in as its own SCRAM user
 * (passwords in <state dir>/secrets/) with the ACLs of Baton's topology, no service a super user;
 * the schema registry behind an HTTPS front with basic auth, where Baton's schemas are registered
 * at start and every service and tool only reads.
 *
 * The terminal shows each service coming up, the ready banner, then only warnings and errors, one
 * readable line each; `--logs` (or BATON_START_LOGS=1) shows every line. Each service's JSON log
 * lines go to <state dir>/logs/<service>.log, the broker's and the registry's own output to
 * kafka.log and registry.log, this script's events to baton-start.log (state dir: BATON_STATE_DIR,
 * else .baton/).
 *
 * The services and the local JVMs run in process groups of their own, so a terminal's Ctrl-C
 * reaches this script alone, which stops them in order: the services first, then the registry and
 * Kafka, which the services drain into.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { provisionInfrastructure, replicationOf, type ProvisionedInfrastructure } from '@baton/local-infra';
import { DEFAULT_TOPIC_PREFIX, topicNames } from '@baton/kafka';
import { gatewayEnvironment, LOCAL_CREDENTIAL_SENDERS, startFleet } from './lib/fleet.js';
import { brokerCount } from './lib/start-options.js';
import { PERSONAL_DATA_READERS, writePersonalDataKeyRing } from './lib/personal-data-keyring.js';
import { securePrincipals, type SecuredPrincipals } from './lib/secured-principals.js';
import { secureRegistry, type SecuredRegistry } from './lib/secured-registry.js';
import { issueSigningIdentities } from './lib/signing-identities.js';
import { discoverServices } from './lib/service-entries.js';
import { forgetConnection, saveConnection, stateDir } from './lib/local-connection.js';
import { isAtLeast, parseLogLine, readableLine } from './lib/readable-log.js';
import { stopServices, type RunningService } from './lib/service-supervisor.js';

const startedAt = Date.now();
/** A command-line switch, or its environment variable set to 1, true or yes. */
function switchedOn(flag: string, variable: string): boolean {
  return process.argv.slice(2).includes(flag) || /^(1|true|yes)$/i.test(process.env[variable] ?? '');
}
const showEveryLine = switchedOn('--logs', 'BATON_START_LOGS');
const secure = switchedOn('--secure', 'BATON_START_SECURE');
const LOG_DIR = join(stateDir(), 'logs');
/** A folder as the terminal names it: relative to the current one when inside it. */
function shown(dir: string): string {
  return relative(process.cwd(), dir).startsWith('..') ? dir : relative(process.cwd(), dir);
}
const LOG_DIR_SHOWN = shown(LOG_DIR);
/**
 * The secured broker's service passwords and the personal data key ring: made at start, removed at
 * stop with the broker they log in to and the records encrypted under the key.
 */
const SECRETS_DIR = join(stateDir(), 'secrets');
/** How long a service gets to drain after SIGTERM before it is killed. */
const SERVICE_STOP_GRACE_MS = 7_000;
/** How often, while services start, the terminal is told which are still starting. */
const START_PROGRESS_INTERVAL_MS = 10_000;
/** How often the parent process is looked for (see watchParent). */
const PARENT_POLL_MS = 500;

await mkdir(LOG_DIR, { recursive: true });
// The infrastructure appends to its files (a broker restart adds to the same file): start afresh.
await Promise.all(['kafka.log', 'registry.log'].map((name) => writeFile(join(LOG_DIR, name), '')));

const logFiles = new Map<string, WriteStream>();
function logFile(name: string): WriteStream {
  let file = logFiles.get(name);
  if (file === undefined) {
    file = createWriteStream(join(LOG_DIR, `${name}.log`));
    // A full disk must not take npm start down; the terminal still shows what matters.
    file.on('error', () => undefined);
    logFiles.set(name, file);
  }
  return file;
}

// A terminal closed under it (SIGHUP) fails its writes: the stop that follows must still run.
process.stdout.on('error', () => undefined);

/** One line on the terminal. */
function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** One of this script's own events, as JSON, in baton-start.log. */
function record(event: string, fields: Record<string, unknown> = {}, level = 'info'): void {
  logFile('baton-start').write(
    `${JSON.stringify({ time: new Date().toISOString(), level, service: 'baton-start', event, ...fields })}\n`,
  );
}

function progress(message: string): void {
  say(`[baton] ${message}`);
  record('baton.progress', { message });
}

function seconds(sinceMs: number): string {
  return `${((Date.now() - sinceMs) / 1000).toFixed(1)}s`;
}

/** The width service names are padded to on the terminal, once they are known. */
let nameWidth = 0;

/** A line a service wrote: to its log file, and to the terminal when it is a warning or worse. */
function serviceLine(name: string, line: string): void {
  logFile(name).write(`${line}\n`);
  if (showEveryLine || isAtLeast(parseLogLine(line).level, 'warn')) say(`  ${readableLine(name, line, nameWidth)}`);
}

const topicPrefix = process.env.BATON_TOPIC_PREFIX ?? DEFAULT_TOPIC_PREFIX;
// The gateway listens where the CLI looks by default; a credential with every role, bound to the
// senders from outside the agents, is made for this run unless BATON_API_KEYS names the credentials.
const gateway = gatewayEnvironment(process.env.GATEWAY_PORT ?? '8080', process.env.BATON_API_KEYS);
const services: RunningService[] = [];
/** Aborted when a stop is asked for during start-up: whatever is starting gives up. */
const starting = new AbortController();
let provisioning: Promise<ProvisionedInfrastructure> | undefined;
/** The secured run's registry front, stopped with the registry behind it. */
let securedRegistry: SecuredRegistry | undefined;
let stopping: Promise<never> | undefined;

/**
 * Stops everything, once, in order: no further service is spawned, the services drain (SIGTERM;
 * killed after SERVICE_STOP_GRACE_MS), then the registry and Kafka stop, or give up starting.
 */
function stopAll(reason: string, exitCode: number): Promise<never> {
  stopping ??= (async () => {
    const stopAt = Date.now();
    starting.abort();
    record('baton.stopping', { reason });
    progress(`stopping (${reason}): the services first, then the schema registry and Kafka`);
    const running = services.filter((service) => service.child.exitCode === null && service.child.signalCode === null);
    await stopServices(services, {
      graceMs: SERVICE_STOP_GRACE_MS,
      onKilled: (service) => {
        record('service.killed', { name: service.name }, 'warn');
        say(`  ${service.name.padEnd(nameWidth)}  WARN   did not stop within ${SERVICE_STOP_GRACE_MS / 1000}s; killed`);
      },
    });
    if (running.length > 0) progress(`${running.length} services stopped in ${seconds(stopAt)}`);
    record('infrastructure.stopping');
    const infrastructure = await provisioning?.catch(() => undefined);
    try {
      await securedRegistry?.stop();
      await infrastructure?.stop();
    } catch (error) {
      record('infrastructure.stop_failed', { error: (error as Error).message }, 'error');
      say(`[baton] ERROR  the broker or the registry did not stop cleanly: ${(error as Error).message}`);
      exitCode = 1;
    }
    record('infrastructure.stopped');
    await forgetConnection();
    await rm(SECRETS_DIR, { recursive: true, force: true });
    progress(`stopped in ${seconds(stopAt)}`);
    record('baton.stopped');
    await Promise.all([...logFiles.values()].map((file) => new Promise<void>((resolve) => file.end(() => resolve()))));
    process.exit(exitCode);
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  // `on`, not `once`: a second Ctrl-C while stopping must not kill this script midway.
  process.on(signal, () => void stopAll(signal, 0));
}
watchParent();

/**
 * npm runs this script through `sh -c`; `kill <npm's pid>` (what `timeout` and service managers
 * send) reaches npm, which passes it to the shell, which dies of it without passing it on. This
 * script then has a new parent: it stops everything as it would on SIGTERM.
 */
function watchParent(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stopAll(`the process that started it, pid ${parent}, exited`, 0);
  }, PARENT_POLL_MS).unref();
}

try {
  record('baton.starting', { pid: process.pid, logDir: LOG_DIR });
  const kafkaNodes = brokerCount(process.argv.slice(2), process.env);
  provisioning = provisionInfrastructure({
    onProgress: progress,
    logDir: LOG_DIR,
    signal: starting.signal,
    securedKafka: secure,
    kafkaNodes,
  });
  const infrastructure = await provisioning;
  const env = {
    KAFKA_BROKERS: infrastructure.kafkaBrokers.join(','),
    SCHEMA_REGISTRY_URL: infrastructure.schemaRegistryUrl,
    BATON_TOPIC_PREFIX: topicPrefix,
  };
  // The services create their topics with as many replicas as the local cluster keeps of its own.
  const replicationEnv: Record<string, string> =
    kafkaNodes > 1 ? { BATON_REPLICATION_FACTOR: String(replicationOf(kafkaNodes).replicationFactor) } : {};
  let principals: SecuredPrincipals | undefined;
  if (infrastructure.securedKafka) {
    principals = await securePrincipals(infrastructure.securedKafka, {
      services: await discoverServices(),
      topicPrefix,
      secretsDir: SECRETS_DIR,
      onProgress: progress,
    });
    securedRegistry = await secureRegistry(infrastructure.securedKafka, {
      upstreamUrl: infrastructure.schemaRegistryUrl,
      services: await discoverServices(),
      secretsDir: SECRETS_DIR,
    });
    env.SCHEMA_REGISTRY_URL = securedRegistry.url;
  }
  // After securePrincipals, which starts the folder afresh. Personal data is encrypted whether or
  // not the broker is secured: what sits on the topics should not depend on how one logs in.
  const keyRingEnv = await writePersonalDataKeyRing(SECRETS_DIR, { required: Boolean(infrastructure.securedKafka) });
  // Every service signs what it writes; the secured broker requires signatures, the plain one warns
  // of a message that fails, so a handoff from a newcomer's own unsigned client is still processed.
  const signing = await issueSigningIdentities({
    services: await discoverServices(),
    secretsDir: SECRETS_DIR,
    mode: infrastructure.securedKafka ? 'required' : 'warn',
  });
  const fleetAt = Date.now();
  const ready = new Set<string>();
  let waiting: ReturnType<typeof setInterval> | undefined;
  const addresses = await startFleet(services, {
    env: { ...env, ...replicationEnv },
    gatewayEnv: gateway.env,
    serviceEnv: (name) => ({
      ...principals?.serviceEnv(name),
      ...securedRegistry?.serviceEnv(name),
      ...keyRingEnv(name),
      ...signing.serviceEnv(name),
    }),
    signal: starting.signal,
    onServices: (names) => {
      nameWidth = Math.max(...names.map((name) => name.length));
      progress(`starting ${names.length} services; their logs: ${LOG_DIR_SHOWN}/<service>.log`);
      waiting = setInterval(() => {
        const left = names.filter((name) => !ready.has(name));
        if (left.length > 0) progress(`still waiting for ${left.join(', ')} (${seconds(fleetAt)})`);
      }, START_PROGRESS_INTERVAL_MS);
    },
    echo: (name) => (line) => serviceLine(name, line),
    processOptions: (name) => ({ onStderrLine: (line) => serviceLine(name, line), detached: true }),
    onSpawned: (service) => {
      record('service.spawned', { name: service.name, pid: service.child.pid });
      service.started.then(
        (address) => {
          ready.add(service.name);
          record('service.ready', { name: service.name, http: address });
          say(`  ${service.name.padEnd(nameWidth)}  ready  ${address}`);
        },
        () => undefined,
      );
      void service.exited.then((code) => {
        const signal = service.child.signalCode;
        record('service.exited', { name: service.name, code, signal });
        // Asked to stop: a clean exit, or the SIGTERM itself when it came before the service
        // listened for it. A kill after the grace period has had its own line.
        if (stopping && (code === 0 || signal === 'SIGTERM' || signal === 'SIGKILL')) return;
        const how = signal === null ? `with code ${code}` : `on ${signal}`;
        const log = join(LOG_DIR_SHOWN, `${service.name}.log`);
        say(`  ${service.name.padEnd(nameWidth)}  ERROR  exited ${how}; its log: ${log}`);
      });
    },
  }).finally(() => clearInterval(waiting));
  starting.signal.throwIfAborted();
  await saveConnection({
    kafkaBrokers: principals ? principals.toolEnv.KAFKA_BROKERS!.split(',') : infrastructure.kafkaBrokers,
    schemaRegistryUrl: env.SCHEMA_REGISTRY_URL,
    topicPrefix,
    services: addresses,
    ...(principals ? { kafkaEnv: principals.toolEnv } : {}),
    ...(securedRegistry ? { registryEnv: securedRegistry.toolEnv } : {}),
    // The samples play the customers' front end: they sign, and encrypt personal data as the gateway does.
    messageEnv: { ...signing.toolEnv, ...keyRingEnv('gateway') },
  });
  const topics = topicNames(topicPrefix);
  record('baton.ready', { kafkaSource: infrastructure.source, ...env, services: addresses });
  say(
    [
      '',
      `Baton is up in ${seconds(startedAt)}: Kafka ${env.KAFKA_BROKERS}, schema registry ${env.SCHEMA_REGISTRY_URL}`,
      ...(principals
        ? [
            `Kafka is secured: SASL_SSL (SCRAM-SHA-512) at ${env.KAFKA_BROKERS}, mutual TLS at ${principals.toolEnv.KAFKA_BROKERS};`,
            `  each service logs in as its own user (passwords in ${shown(SECRETS_DIR)}/) with the ACLs \`npx baton acls\` prints.`,
            `The schema registry answers over HTTPS with basic auth: Baton's schemas were registered at start; each service and the`,
            `  local tools only read, each as its own principal (passwords in ${shown(SECRETS_DIR)}/registry/).`,
          ]
        : []),
      `Every service signs or seals what it writes (keys and trust store in ${shown(SECRETS_DIR)}/signing/); signatures are ${infrastructure.securedKafka ? 'required: an unsigned or forged message is dead-lettered' : 'checked with BATON_SIGNATURES=warn: a message that fails is processed and logged'}.`,
      `Personal data is encrypted on the topics (key ring ${shown(SECRETS_DIR)}/pii-keyring.json, given to ${PERSONAL_DATA_READERS.length} services: ${PERSONAL_DATA_READERS.join(', ')})${infrastructure.securedKafka ? '; the router dead-letters a handoff whose personal fields arrive in clear (BATON_PII_REQUIRED=true)' : ''}.`,
      `Publish handoffs to ${topics.inbound} (Avro, Confluent wire format, key = task_id).`,
      '  npm run samples    publishes the sample handoffs: an escalation, a negotiated escalation, a refund and a purchase, a workflow',
      ...(gateway.token === undefined
        ? []
        : [
            `  gateway            ${addresses.gateway}/ui/ (API, page and /openapi.json); for the CLI:`,
            `                     export BATON_GATEWAY_URL=${addresses.gateway} BATON_TOKEN=${gateway.token}`,
            `                     (it publishes as ${LOCAL_CREDENTIAL_SENDERS.join(' or ')} only, never as an agent)`,
          ]),
      '  npm run watch      follows outcome events and replies to the user, decoded',
      ...Object.entries(addresses).map(([name, address]) => `  ${name.padEnd(28)} ${address}/healthz /readyz /metrics`),
      showEveryLine
        ? `Every service's log lines follow; they are also in ${LOG_DIR_SHOWN}/.`
        : `Warnings and errors follow; every log line is in ${LOG_DIR_SHOWN}/ (npm start -- --logs shows them here).`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
} catch (error) {
  // A start given up because a stop was asked for is not a failure: the stop reports.
  if (!starting.signal.aborted) {
    record('baton.start_failed', { error: (error as Error).message }, 'error');
    say(`[baton] ERROR  could not start: ${(error as Error).message}`);
    await stopAll('the start failed', 1);
  }
}
