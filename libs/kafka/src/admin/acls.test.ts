import { describe, expect, it } from 'vitest';
import { aclEntries } from './acls.js';

describe('aclEntries', () => {
  it('is one allow binding per operation, in kafkajs numbers, from any host', () => {
    expect(
      aclEntries([
        {
          service: 's',
          principal: 'User:s',
          grants: [
            { resourceType: 'topic', patternType: 'literal', name: 't', operations: ['read', 'describe-configs'] },
            { resourceType: 'group', patternType: 'prefixed', name: 'g.', operations: ['read'] },
            { resourceType: 'transactional-id', patternType: 'prefixed', name: 'x.', operations: ['write'] },
            { resourceType: 'cluster', patternType: 'literal', name: 'ignored', operations: ['idempotent-write'] },
          ],
        },
      ]),
    ).toEqual([
      // resourceType TOPIC 2, GROUP 3, CLUSTER 4, TRANSACTIONAL_ID 5; pattern LITERAL 3, PREFIXED 4;
      // operation READ 3, WRITE 4, DESCRIBE_CONFIGS 10, IDEMPOTENT_WRITE 12; permission ALLOW 3.
      {
        resourceType: 2,
        resourceName: 't',
        resourcePatternType: 3,
        principal: 'User:s',
        host: '*',
        operation: 3,
        permissionType: 3,
      },
      {
        resourceType: 2,
        resourceName: 't',
        resourcePatternType: 3,
        principal: 'User:s',
        host: '*',
        operation: 10,
        permissionType: 3,
      },
      {
        resourceType: 3,
        resourceName: 'g.',
        resourcePatternType: 4,
        principal: 'User:s',
        host: '*',
        operation: 3,
        permissionType: 3,
      },
      {
        resourceType: 5,
        resourceName: 'x.',
        resourcePatternType: 4,
        principal: 'User:s',
        host: '*',
        operation: 4,
        permissionType: 3,
      },
      {
        resourceType: 4,
        resourceName: 'kafka-cluster',
        resourcePatternType: 3,
        principal: 'User:s',
        host: '*',
        operation: 12,
        permissionType: 3,
      },
    ]);
  });
});
