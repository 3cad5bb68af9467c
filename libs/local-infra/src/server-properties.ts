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
  ];
  return settings.map(([key, value]) => `${key}=${escapeValue(String(value))}\n`).join('');
}

/** Backslash is the escape character of .properties files, and Windows paths are full of it. */
function escapeValue(value: string): string {
  return value.replace(/\\/g, '\\\\');
}
