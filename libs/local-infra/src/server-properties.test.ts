import { expect, test } from 'vitest';
import { renderSecuredServerProperties, renderServerProperties, replicationOf } from './server-properties.js';

function parse(text: string): Map<string, string> {
  return new Map(
    text
      .trimEnd()
      .split('\n')
      .map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1)] as const;
      }),
  );
}

test('a single KRaft node serves clients and its controller on the given loopback ports', () => {
  const properties = parse(
    renderServerProperties({ brokerPort: 40001, controllerPort: 40002, logDir: '/tmp/baton-kafka-x/data' }),
  );

  expect(properties.get('process.roles')).toBe('broker,controller');
  expect(properties.get('node.id')).toBe('1');
  expect(properties.get('controller.quorum.voters')).toBe('1@127.0.0.1:40002');
  expect(properties.get('listeners')).toBe('PLAINTEXT://127.0.0.1:40001,CONTROLLER://127.0.0.1:40002');
  expect(properties.get('advertised.listeners')).toBe('PLAINTEXT://127.0.0.1:40001');
  expect(properties.get('controller.listener.names')).toBe('CONTROLLER');
  expect(properties.get('log.dirs')).toBe('/tmp/baton-kafka-x/data');
});

test('internal topics fit one broker and topics are never created implicitly', () => {
  const properties = parse(renderServerProperties({ brokerPort: 1, controllerPort: 2, logDir: '/d' }));

  expect(properties.get('offsets.topic.replication.factor')).toBe('1');
  expect(properties.get('transaction.state.log.replication.factor')).toBe('1');
  expect(properties.get('transaction.state.log.min.isr')).toBe('1');
  expect(properties.get('auto.create.topics.enable')).toBe('false');
  expect(properties.get('group.initial.rebalance.delay.ms')).toBe('0');
});

test('backslashes in a Windows path survive the .properties escaping', () => {
  const text = renderServerProperties({ brokerPort: 1, controllerPort: 2, logDir: 'C:\\Temp\\baton-kafka\\data' });

  expect(text).toContain('log.dirs=C:\\\\Temp\\\\baton-kafka\\\\data\n');
});

test('the broker runs one network thread and two request handlers, writes no idle metadata records and removes deleted files within a second, sized for the machine it shares', () => {
  const properties = parse(
    renderServerProperties({ brokerPort: 40001, controllerPort: 40002, logDir: '/tmp/baton-kafka-x/data' }),
  );

  expect(properties.get('num.network.threads')).toBe('1');
  expect(properties.get('num.io.threads')).toBe('2');
  expect(properties.get('metadata.max.idle.interval.ms')).toBe('0');
  expect(properties.get('log.segment.delete.delay.ms')).toBe('1000');
});

test('a node of a cluster whose nodes each have an address listens and advertises on its own, and names every voter by its', () => {
  const properties = parse(
    renderServerProperties({
      brokerPort: 9092,
      controllerPort: 9093,
      logDir: '/d',
      cluster: { nodeId: 2, controllerPorts: [9093, 9093, 9093], hosts: ['10.200.1.11', '10.200.1.12', '10.200.1.13'] },
    }),
  );

  expect(properties.get('listeners')).toBe('PLAINTEXT://10.200.1.12:9092,CONTROLLER://10.200.1.12:9093');
  expect(properties.get('advertised.listeners')).toBe('PLAINTEXT://10.200.1.12:9092');
  expect(properties.get('controller.quorum.voters')).toBe('1@10.200.1.11:9093,2@10.200.1.12:9093,3@10.200.1.13:9093');
});

test('the secured node has no plaintext listener, maps certificate CNs to principals and enforces ACLs', () => {
  const properties = parse(
    renderSecuredServerProperties({
      saslPort: 40001,
      mtlsPort: 40002,
      controllerPort: 40003,
      logDir: '/tmp/k/data',
      keystorePath: '/tmp/k/tls/broker-keystore.pem',
      keyPassword: 'generated',
      truststorePath: '/tmp/k/tls/ca.pem',
      brokerPrincipal: 'baton-local-broker',
    }),
  );

  expect(properties.get('listeners')).toBe(
    'CLIENTS://127.0.0.1:40001,MTLS://127.0.0.1:40002,CONTROLLER://127.0.0.1:40003',
  );
  expect(properties.get('advertised.listeners')).toBe('CLIENTS://localhost:40001,MTLS://localhost:40002');
  expect(properties.get('listener.security.protocol.map')).toBe('CLIENTS:SASL_SSL,MTLS:SSL,CONTROLLER:SSL');
  expect([...properties.values()].join('\n')).not.toMatch(/PLAINTEXT/);
  expect(properties.get('inter.broker.listener.name')).toBe('MTLS');
  expect(properties.get('ssl.client.auth')).toBe('required');
  expect(properties.get('listener.name.clients.ssl.client.auth')).toBe('none');
  expect(properties.get('ssl.principal.mapping.rules')).toBe('RULE:^CN=([^,]+).*$/$1/,DEFAULT');
  expect(properties.get('listener.name.clients.sasl.enabled.mechanisms')).toBe('SCRAM-SHA-256,SCRAM-SHA-512');
  expect(properties.get('authorizer.class.name')).toBe('org.apache.kafka.metadata.authorizer.StandardAuthorizer');
  expect(properties.get('allow.everyone.if.no.acl.found')).toBe('false');
  expect(properties.get('super.users')).toBe('User:baton-local-broker');
  expect(properties.get('ssl.keystore.type')).toBe('PEM');
  expect(properties.get('offsets.topic.replication.factor')).toBe('1');
});

test('a node of a three-node cluster votes with the others and replicates everything three times, two in sync', () => {
  const properties = parse(
    renderServerProperties({
      brokerPort: 40003,
      controllerPort: 40012,
      logDir: '/d',
      cluster: { nodeId: 2, controllerPorts: [40011, 40012, 40013] },
    }),
  );

  expect(properties.get('node.id')).toBe('2');
  expect(properties.get('controller.quorum.voters')).toBe('1@127.0.0.1:40011,2@127.0.0.1:40012,3@127.0.0.1:40013');
  expect(properties.get('listeners')).toBe('PLAINTEXT://127.0.0.1:40003,CONTROLLER://127.0.0.1:40012');
  expect(properties.get('default.replication.factor')).toBe('3');
  expect(properties.get('min.insync.replicas')).toBe('2');
  expect(properties.get('offsets.topic.replication.factor')).toBe('3');
  expect(properties.get('transaction.state.log.replication.factor')).toBe('3');
  expect(properties.get('transaction.state.log.min.isr')).toBe('2');
  // One coordinator partition per node, so each node coordinates some groups and transactions.
  expect(properties.get('offsets.topic.num.partitions')).toBe('3');
  expect(properties.get('transaction.state.log.num.partitions')).toBe('3');
  expect(properties.has('metadata.max.idle.interval.ms')).toBe(false);
});

test('replication fits the nodes there are', () => {
  expect(replicationOf(1)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
  expect(replicationOf(2)).toEqual({ replicationFactor: 2, minInsyncReplicas: 1 });
  expect(replicationOf(3)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
  expect(replicationOf(5)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
});
