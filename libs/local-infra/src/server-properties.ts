export interface BrokerSettings {
  brokerPort: number;
  controllerPort: number;
  /** Where the broker keeps its log segments and metadata; empty before formatting. */
  logDir: string;
}

/**
 * server.properties for a single KRaft node acting as both broker and controller on loopback,
 * tuned for tests: single-replica internal topics, no topic created by accident, no wait before
 * the first consumer group rebalance.
 */
export function renderServerProperties({ brokerPort, controllerPort, logDir }: BrokerSettings): string {
  const settings: [string, string | number][] = [
    ['process.roles', 'broker,controller'],
    ['node.id', 1],
    ['controller.quorum.voters', `1@127.0.0.1:${controllerPort}`],
    ['listeners', `PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}`],
    ['advertised.listeners', `PLAINTEXT://127.0.0.1:${brokerPort}`],
    ['listener.security.protocol.map', 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT'],
    ['inter.broker.listener.name', 'PLAINTEXT'],
    ['controller.listener.names', 'CONTROLLER'],
    ['log.dirs', logDir],
    ['num.partitions', 1],
    ['auto.create.topics.enable', 'false'],
    ['offsets.topic.replication.factor', 1],
    // One partition instead of 50: the first consumer group of a run waits for these to be created.
    ['offsets.topic.num.partitions', 1],
    ['transaction.state.log.replication.factor', 1],
    ['transaction.state.log.min.isr', 1],
    ['transaction.state.log.num.partitions', 1],
    ['group.initial.rebalance.delay.ms', 0],
    // Sized for the one machine it shares (issue 10: the broker idle at <= 5 % of a core). Kafka's
    // defaults (3 network threads, 8 request handlers) are for a server of its own; each idle thread
    // wakes every 300 ms to look for work, and with the `npm start` fleet idle the network threads
    // alone took 1.5 % of a core (per-thread CPU from /proc, 30 s).
    ['num.network.threads', 1],
    ['num.io.threads', 2],
  ];
  return settings.map(([key, value]) => `${key}=${escapeValue(String(value))}\n`).join('');
}

/** Backslash is the escape character of .properties files, and Windows paths are full of it. */
function escapeValue(value: string): string {
  return value.replace(/\\/g, '\\\\');
}
