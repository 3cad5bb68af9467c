export interface BrokerSettings {
  brokerPort: number;
  controllerPort: number;
  /** Where the broker keeps its log segments and metadata; empty before formatting. */
  logDir: string;
  /** The node's place in a cluster of several; a single node when absent. */
  cluster?: ClusterMembership;
}

/** A node of a KRaft cluster whose every node is broker and controller both, on loopback. */
export interface ClusterMembership {
  /** 1 to the number of nodes. */
  nodeId: number;
  /** Every node's controller port, node 1's first: the quorum's voters. */
  controllerPorts: readonly number[];
  /** Every node's address, node 1's first, when each has its own (network-namespaces.ts). @default 127.0.0.1 for all */
  hosts?: readonly string[];
}

/** The TLS material and ports of a broker with no plaintext listener (see renderSecuredServerProperties). */
export interface SecuredBrokerSettings {
  /** The SASL_SSL listener clients log in on with SCRAM. */
  saslPort: number;
  /** The SSL listener with client certificates required: mutual-TLS clients and the broker itself. */
  mtlsPort: number;
  controllerPort: number;
  logDir: string;
  /** PEM file: the broker's private key (encrypted with `keyPassword`) and its certificate chain. */
  keystorePath: string;
  keyPassword: string;
  /** PEM file: the CA every certificate here chains to. */
  truststorePath: string;
  /** The broker certificate's CN: its principal (User:<cn>), the only super user. */
  brokerPrincipal: string;
}

type Setting = [string, string | number];

/**
 * Kafka's SSL principal for a certificate is its whole subject DN ("CN=sales-agent,O=..."); this
 * maps it to the CN alone, so a client certificate for CN=sales-agent acts as User:sales-agent,
 * the same principal as the SCRAM user sales-agent, and the same ACLs apply to both.
 */
export const SSL_PRINCIPAL_MAPPING_RULES = 'RULE:^CN=([^,]+).*$/$1/,DEFAULT';

export const SECURED_LISTENERS = { sasl: 'CLIENTS', mtls: 'MTLS', controller: 'CONTROLLER' } as const;

/**
 * server.properties for a single KRaft node acting as both broker and controller on loopback,
 * tuned for tests: single-replica internal topics, no topic created by accident, no wait before
 * the first consumer group rebalance.
 */
export function renderServerProperties({ brokerPort, controllerPort, logDir, cluster }: BrokerSettings): string {
  const membership = cluster ?? { nodeId: 1, controllerPorts: [controllerPort] };
  const hostOf = (index: number) => membership.hosts?.[index] ?? '127.0.0.1';
  const voters = membership.controllerPorts.map((port, index) => `${index + 1}@${hostOf(index)}:${port}`).join(',');
  const host = hostOf(membership.nodeId - 1);
  return render(membership, [
    ['controller.quorum.voters', voters],
    ['listeners', `PLAINTEXT://${host}:${brokerPort},CONTROLLER://${host}:${controllerPort}`],
    ['advertised.listeners', `PLAINTEXT://${host}:${brokerPort}`],
    ['listener.security.protocol.map', 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT'],
    ['inter.broker.listener.name', 'PLAINTEXT'],
    ['controller.listener.names', 'CONTROLLER'],
    ['log.dirs', logDir],
  ]);
}

/**
 * The same node with no plaintext listener at all, bound to 127.0.0.1 and advertised as
 * `localhost` (the name its certificate holds; a client verifying it by an IP would send an IP as
 * the TLS server name, which Node deprecates, DEP0123):
 * - CLIENTS, SASL_SSL: SCRAM-SHA-256 and SCRAM-SHA-512 logins over TLS, no client certificate;
 * - MTLS, SSL with a client certificate required: mutual-TLS clients, and the inter-broker listener;
 * - CONTROLLER, SSL with a client certificate required: KRaft's own traffic, the broker presenting
 *   its own certificate to its controller.
 * The StandardAuthorizer denies what no ACL allows; the broker's own principal is the only super user.
 */
export function renderSecuredServerProperties(settings: SecuredBrokerSettings): string {
  const { sasl, mtls, controller } = SECURED_LISTENERS;
  const scramJaas = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
  return render({ nodeId: 1, controllerPorts: [settings.controllerPort] }, [
    ['controller.quorum.voters', `1@127.0.0.1:${settings.controllerPort}`],
    [
      'listeners',
      `${sasl}://127.0.0.1:${settings.saslPort},${mtls}://127.0.0.1:${settings.mtlsPort},${controller}://127.0.0.1:${settings.controllerPort}`,
    ],
    ['advertised.listeners', `${sasl}://localhost:${settings.saslPort},${mtls}://localhost:${settings.mtlsPort}`],
    ['listener.security.protocol.map', `${sasl}:SASL_SSL,${mtls}:SSL,${controller}:SSL`],
    ['inter.broker.listener.name', mtls],
    ['controller.listener.names', controller],
    ['log.dirs', settings.logDir],
    // TLS everywhere: the broker's own key and certificate, the CA it trusts, host names checked.
    ['ssl.keystore.type', 'PEM'],
    ['ssl.keystore.location', settings.keystorePath],
    ['ssl.key.password', settings.keyPassword],
    ['ssl.truststore.type', 'PEM'],
    ['ssl.truststore.location', settings.truststorePath],
    ['ssl.endpoint.identification.algorithm', 'https'],
    ['ssl.enabled.protocols', 'TLSv1.3,TLSv1.2'],
    ['ssl.client.auth', 'required'],
    [`listener.name.${sasl.toLowerCase()}.ssl.client.auth`, 'none'],
    ['ssl.principal.mapping.rules', SSL_PRINCIPAL_MAPPING_RULES],
    // SCRAM users live in the cluster metadata (Admin.alterUserScramCredentials); PLAIN would need
    // its passwords in this file, so it is not offered.
    ['sasl.enabled.mechanisms', 'SCRAM-SHA-256,SCRAM-SHA-512'],
    [`listener.name.${sasl.toLowerCase()}.sasl.enabled.mechanisms`, 'SCRAM-SHA-256,SCRAM-SHA-512'],
    [`listener.name.${sasl.toLowerCase()}.scram-sha-256.sasl.jaas.config`, scramJaas],
    [`listener.name.${sasl.toLowerCase()}.scram-sha-512.sasl.jaas.config`, scramJaas],
    ['authorizer.class.name', 'org.apache.kafka.metadata.authorizer.StandardAuthorizer'],
    ['allow.everyone.if.no.acl.found', 'false'],
    ['super.users', `User:${settings.brokerPrincipal}`],
  ]);
}

/**
 * How a cluster of `nodes` replicates: three copies of everything (fewer on fewer nodes), and a
 * write is acknowledged (acks=all) once two of them have it, so one broker can fail without a
 * write lost or refused. What production clusters run with, and what `npm start -- --brokers 3`
 * runs.
 */
export function replicationOf(nodes: number): { replicationFactor: number; minInsyncReplicas: number } {
  const replicationFactor = Math.min(3, nodes);
  return { replicationFactor, minInsyncReplicas: replicationFactor >= 3 ? 2 : 1 };
}

/** One code path for all: the node's role and the test tuning, then the listeners and security. */
function render(membership: ClusterMembership, listenerSettings: Setting[]): string {
  const nodes = membership.controllerPorts.length;
  const { replicationFactor, minInsyncReplicas } = replicationOf(nodes);
  const settings: Setting[] = [
    ['process.roles', 'broker,controller'],
    ['node.id', membership.nodeId],
    ...listenerSettings,
    ['num.partitions', 1],
    ['default.replication.factor', replicationFactor],
    ['min.insync.replicas', minInsyncReplicas],
    ['auto.create.topics.enable', 'false'],
    ['offsets.topic.replication.factor', replicationFactor],
    // One partition per node instead of 50: the first consumer group of a run waits for these to be
    // created, and on several nodes each node coordinates some groups and transactions.
    ['offsets.topic.num.partitions', nodes],
    ['transaction.state.log.replication.factor', replicationFactor],
    ['transaction.state.log.min.isr', minInsyncReplicas],
    ['transaction.state.log.num.partitions', nodes],
    ['group.initial.rebalance.delay.ms', 0],
    // Sized for the one machine it shares (issue 10: the broker idle at <= 5 % of a core). Kafka's
    // defaults (3 network threads, 8 request handlers) are for a server of its own; each idle thread
    // wakes every 300 ms to look for work, and with the `npm start` fleet idle the network threads
    // alone took 1.5 % of a core (per-thread CPU from /proc, 30 s).
    ['num.network.threads', 1],
    ['num.io.threads', 2],
    // The active controller appends a no-op record to the metadata log every 500 ms by default, for
    // a multi-node quorum's lag metrics; a single node has no one to show them to, and each append
    // wakes the controller, the log and the broker's metadata loader. 0 turns them off. With the
    // `npm start` fleet idle (bench/idle-cpu.ts, 60 s, two runs each, alternating): the broker 4.72
    // and 5.06 -> 4.08 and 4.18 % of a core; the broker alone 2.05 and 2.08 -> 1.18 %. A cluster
    // keeps them: they are how its brokers see that the metadata they hold is current.
    ...(nodes === 1 ? ([['metadata.max.idle.interval.ms', 0]] satisfies Setting[]) : []),
    // A cluster gives each partition's leadership back to its preferred replica once the broker
    // is back (Kafka checks every 300 s by default): every 10 s here, so a restarted broker takes
    // its leaders and coordinators back while the run that restarted it still goes on, and the
    // clients meet that move too.
    ...(nodes > 1 ? ([['leader.imbalance.check.interval.seconds', 10]] satisfies Setting[]) : []),
    // A deleted topic's files are removed a second later rather than a minute (Kafka's default, for a
    // server whose disks are busy serving others). The bench deletes its topics and then measures
    // the idle fleet: the removal of its gigabyte of segments fell in the idle window, a fifth of
    // the broker's CPU samples there (perf, LogSegment.deleteTypeIfExists), and tests that delete
    // their topics left the same work for whatever ran a minute later. Not 0: the broker's delete
    // task re-schedules itself this far ahead when nothing waits, so 0 spins (idle broker 14.6 %).
    ['log.segment.delete.delay.ms', 1_000],
  ];
  return renderProperties(settings);
}

/** A .properties file of `settings`, one a line, in order. */
export function renderProperties(settings: [string, string | number][]): string {
  return settings.map(([key, value]) => `${key}=${escapeValue(String(value))}\n`).join('');
}

/** Backslash is the escape character of .properties files, and Windows paths are full of it. */
function escapeValue(value: string): string {
  return value.replace(/\\/g, '\\\\');
}
