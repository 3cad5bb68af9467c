import kafkajs, { type AclEntry } from 'kafkajs';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

/** The kinds of resource a Baton service is granted operations on. */
export type AclResourceType = 'topic' | 'group' | 'transactional-id' | 'cluster';

/** `literal`: the resource of that exact name; `prefixed`: every resource whose name starts with it. */
export type AclPatternType = 'literal' | 'prefixed';

/** Kafka's ACL operations, in kafka-acls.sh's words (lower case, dashes). */
export type AclOperation =
  | 'all'
  | 'read'
  | 'write'
  | 'create'
  | 'delete'
  | 'alter'
  | 'describe'
  | 'cluster-action'
  | 'describe-configs'
  | 'alter-configs'
  | 'idempotent-write';

/** Operations allowed on one resource pattern. The cluster resource's name is `kafka-cluster`. */
export interface AclGrant {
  resourceType: AclResourceType;
  patternType: AclPatternType;
  name: string;
  operations: readonly AclOperation[];
}

/** What one principal (`User:<name>`) may do: allow rules only; anything not granted is denied. */
export interface PrincipalAcls {
  /** The service the principal belongs to, e.g. `sales-agent`. */
  service: string;
  /** e.g. `User:sales-agent`. */
  principal: string;
  grants: readonly AclGrant[];
}

/** The one name Kafka gives the cluster resource. */
export const CLUSTER_RESOURCE_NAME = 'kafka-cluster';

// kafkajs is CommonJS: Node finds no named export for its enums, so they come off the default export.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;

const RESOURCE_TYPES: Record<AclResourceType, AclEntry['resourceType']> = {
  topic: AclResourceTypes.TOPIC,
  group: AclResourceTypes.GROUP,
  'transactional-id': AclResourceTypes.TRANSACTIONAL_ID,
  cluster: AclResourceTypes.CLUSTER,
};

const PATTERN_TYPES: Record<AclPatternType, AclEntry['resourcePatternType']> = {
  literal: ResourcePatternTypes.LITERAL,
  prefixed: ResourcePatternTypes.PREFIXED,
};

const OPERATIONS: Record<AclOperation, AclEntry['operation']> = {
  all: AclOperationTypes.ALL,
  read: AclOperationTypes.READ,
  write: AclOperationTypes.WRITE,
  create: AclOperationTypes.CREATE,
  delete: AclOperationTypes.DELETE,
  alter: AclOperationTypes.ALTER,
  describe: AclOperationTypes.DESCRIBE,
  'cluster-action': AclOperationTypes.CLUSTER_ACTION,
  'describe-configs': AclOperationTypes.DESCRIBE_CONFIGS,
  'alter-configs': AclOperationTypes.ALTER_CONFIGS,
  'idempotent-write': AclOperationTypes.IDEMPOTENT_WRITE,
};

/** The ACL bindings of `acls` as kafkajs's createAcls takes them: one allow entry per operation. */
export function aclEntries(acls: readonly PrincipalAcls[], host = '*'): AclEntry[] {
  return acls.flatMap(({ principal, grants }) =>
    grants.flatMap((grant) =>
      grant.operations.map((operation) => ({
        resourceType: RESOURCE_TYPES[grant.resourceType],
        resourceName: grant.resourceType === 'cluster' ? CLUSTER_RESOURCE_NAME : grant.name,
        resourcePatternType: PATTERN_TYPES[grant.patternType],
        principal,
        host,
        operation: OPERATIONS[operation],
        permissionType: AclPermissionTypes.ALLOW,
      })),
    ),
  );
}

/**
 * Creates the ACL bindings of `acls` on the cluster (allow rules from any host), as
 * `kafka-acls.sh --add` would. Creating a binding that exists already is a no-op, so it can run at
 * every start. The client's principal needs ALTER on the cluster. Resolves with the number of
 * bindings sent.
 */
export async function applyAcls(kafka: KafkaClient, acls: readonly PrincipalAcls[]): Promise<number> {
  const entries = aclEntries(acls);
  if (entries.length === 0) return 0;
  const admin = kafkajsClient(kafka).admin();
  await admin.connect();
  try {
    await admin.createAcls({ acl: entries });
    return entries.length;
  } finally {
    await admin.disconnect();
  }
}
