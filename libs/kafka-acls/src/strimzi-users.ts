import type { AclGrant, PrincipalAcls } from '@baton/kafka';
import { stringify } from 'yaml';
import { OPERATION_NAMES } from './kafka-acls-commands.js';

export type StrimziAuthentication = 'scram-sha-512' | 'tls';

export interface StrimziKafkaUsersOptions {
  /** The Strimzi Kafka cluster's name: the users' `strimzi.io/cluster` label. */
  cluster: string;
  authentication: StrimziAuthentication;
  /** metadata.namespace; none when a kustomization sets it. */
  namespace?: string;
}

/** Strimzi's resource types. */
const RESOURCE_TYPES = {
  topic: 'topic',
  group: 'group',
  'transactional-id': 'transactionalId',
  cluster: 'cluster',
} as const;

function strimziAcl(grant: AclGrant) {
  return {
    resource:
      grant.resourceType === 'cluster'
        ? { type: 'cluster' }
        : { type: RESOURCE_TYPES[grant.resourceType], name: grant.name, patternType: grant.patternType },
    operations: grant.operations.map((operation) => OPERATION_NAMES[operation]),
  };
}

/** The KafkaUser's name: the principal's name without `User:`. */
function userName(principal: string): string {
  const name = principal.replace(/^User:/, '');
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) {
    throw new Error(`principal "${principal}" makes no Kubernetes name for a KafkaUser`);
  }
  return name;
}

/**
 * One Strimzi `KafkaUser` (kafka.strimzi.io/v1beta2) per service, as YAML documents: the User
 * Operator makes its credentials (for scram-sha-512, the Secret `<user>` with key `password`) and
 * its ACLs (simple authorization). With TLS the principal Kafka sees is `User:CN=<user>`, and the
 * operator writes the ACLs for it.
 */
export function strimziKafkaUsers(acls: readonly PrincipalAcls[], options: StrimziKafkaUsersOptions): string {
  return acls
    .map(({ service, principal, grants }) => {
      const user = {
        apiVersion: 'kafka.strimzi.io/v1beta2',
        kind: 'KafkaUser',
        metadata: {
          name: userName(principal),
          ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
          labels: { 'strimzi.io/cluster': options.cluster, 'app.kubernetes.io/name': service },
        },
        spec: {
          authentication: { type: options.authentication },
          authorization: { type: 'simple', acls: grants.map(strimziAcl) },
        },
      };
      return `---\n${stringify(user, { lineWidth: 0 })}`;
    })
    .join('');
}
