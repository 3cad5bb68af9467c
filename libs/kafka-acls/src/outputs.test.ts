import type { PrincipalAcls } from '@baton/kafka';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { kafkaAclsCommands, shellWord } from './kafka-acls-commands.js';
import { strimziKafkaUsers } from './strimzi-users.js';

const ACLS: PrincipalAcls[] = [
  {
    service: 'sales-agent',
    principal: 'User:sales-agent',
    grants: [
      { resourceType: 'topic', patternType: 'literal', name: 'p.agent.s.inbox', operations: ['read', 'create'] },
      { resourceType: 'group', patternType: 'prefixed', name: 'p.agent.s.', operations: ['read'] },
      {
        resourceType: 'transactional-id',
        patternType: 'prefixed',
        name: 'p.agent.s.',
        operations: ['write', 'describe'],
      },
    ],
  },
  {
    service: 'ops',
    principal: 'User:ops',
    grants: [
      { resourceType: 'cluster', patternType: 'literal', name: 'kafka-cluster', operations: ['describe-configs'] },
    ],
  },
];

describe('kafkaAclsCommands', () => {
  it('prints one kafka-acls.sh --add per grant', () => {
    expect(kafkaAclsCommands(ACLS, { bootstrapServer: 'kafka:9093', commandConfig: '/etc/admin.properties' })).toEqual([
      'kafka-acls.sh --bootstrap-server kafka:9093 --command-config /etc/admin.properties --add --allow-principal User:sales-agent --operation Read --operation Create --topic p.agent.s.inbox',
      'kafka-acls.sh --bootstrap-server kafka:9093 --command-config /etc/admin.properties --add --allow-principal User:sales-agent --operation Read --group p.agent.s. --resource-pattern-type prefixed',
      'kafka-acls.sh --bootstrap-server kafka:9093 --command-config /etc/admin.properties --add --allow-principal User:sales-agent --operation Write --operation Describe --transactional-id p.agent.s. --resource-pattern-type prefixed',
      'kafka-acls.sh --bootstrap-server kafka:9093 --command-config /etc/admin.properties --add --allow-principal User:ops --operation DescribeConfigs --cluster',
    ]);
  });

  it('leaves --command-config out when none is given, and takes another script name', () => {
    expect(kafkaAclsCommands([ACLS[1]!], { bootstrapServer: 'k:9092', script: 'bin/kafka-acls' })).toEqual([
      'bin/kafka-acls --bootstrap-server k:9092 --add --allow-principal User:ops --operation DescribeConfigs --cluster',
    ]);
  });

  it('quotes what the shell would split or expand', () => {
    expect(shellWord('User:CN=sales agent')).toBe("'User:CN=sales agent'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('$HOME')).toBe("'$HOME'");
    expect(shellWord('a.b-c_d')).toBe('a.b-c_d');
  });
});

describe('strimziKafkaUsers', () => {
  it('writes one KafkaUser per principal', () => {
    expect(strimziKafkaUsers([ACLS[0]!], { cluster: 'baton', authentication: 'scram-sha-512', namespace: 'ns' }))
      .toBe(`---
apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaUser
metadata:
  name: sales-agent
  namespace: ns
  labels:
    strimzi.io/cluster: baton
    app.kubernetes.io/name: sales-agent
spec:
  authentication:
    type: scram-sha-512
  authorization:
    type: simple
    acls:
      - resource:
          type: topic
          name: p.agent.s.inbox
          patternType: literal
        operations:
          - Read
          - Create
      - resource:
          type: group
          name: p.agent.s.
          patternType: prefixed
        operations:
          - Read
      - resource:
          type: transactionalId
          name: p.agent.s.
          patternType: prefixed
        operations:
          - Write
          - Describe
`);
  });

  it('names the cluster resource without a name, and leaves the namespace out when none is given', () => {
    const [user] = parseAllDocuments(strimziKafkaUsers([ACLS[1]!], { cluster: 'c', authentication: 'tls' })).map(
      (document) => document.toJS(),
    );
    expect(user).toEqual({
      apiVersion: 'kafka.strimzi.io/v1beta2',
      kind: 'KafkaUser',
      metadata: { name: 'ops', labels: { 'strimzi.io/cluster': 'c', 'app.kubernetes.io/name': 'ops' } },
      spec: {
        authentication: { type: 'tls' },
        authorization: { type: 'simple', acls: [{ resource: { type: 'cluster' }, operations: ['DescribeConfigs'] }] },
      },
    });
  });

  it('refuses a principal that makes no Kubernetes name', () => {
    expect(() =>
      strimziKafkaUsers([{ ...ACLS[1]!, principal: 'User:Ops_1' }], { cluster: 'c', authentication: 'tls' }),
    ).toThrow('principal "User:Ops_1" makes no Kubernetes name for a KafkaUser');
  });
});
