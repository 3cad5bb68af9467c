import type { AclGrant, AclOperation, PrincipalAcls } from '@baton/kafka';

export interface KafkaAclsCommandsOptions {
  /** host:port of a broker, `--bootstrap-server`. */
  bootstrapServer: string;
  /** The admin client's properties file (its SASL or TLS settings), `--command-config`. */
  commandConfig?: string;
  /** @default 'kafka-acls.sh' */
  script?: string;
}

/** kafka-acls.sh's (and Strimzi's) names of the operations. */
export const OPERATION_NAMES: Record<AclOperation, string> = {
  all: 'All',
  read: 'Read',
  write: 'Write',
  create: 'Create',
  delete: 'Delete',
  alter: 'Alter',
  describe: 'Describe',
  'cluster-action': 'ClusterAction',
  'describe-configs': 'DescribeConfigs',
  'alter-configs': 'AlterConfigs',
  'idempotent-write': 'IdempotentWrite',
};

/** A word as a POSIX shell reads it: bare when it holds nothing special, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function resourceArguments(grant: AclGrant): string[] {
  const pattern = grant.patternType === 'prefixed' ? ['--resource-pattern-type', 'prefixed'] : [];
  switch (grant.resourceType) {
    case 'topic':
      return ['--topic', grant.name, ...pattern];
    case 'group':
      return ['--group', grant.name, ...pattern];
    case 'transactional-id':
      return ['--transactional-id', grant.name, ...pattern];
    case 'cluster':
      return ['--cluster'];
  }
}

/**
 * One `kafka-acls.sh --add` command per grant: the principal allowed the grant's operations on
 * its resource pattern, from any host. Running them again adds nothing.
 */
export function kafkaAclsCommands(acls: readonly PrincipalAcls[], options: KafkaAclsCommandsOptions): string[] {
  const connection = [
    options.script ?? 'kafka-acls.sh',
    '--bootstrap-server',
    options.bootstrapServer,
    ...(options.commandConfig === undefined ? [] : ['--command-config', options.commandConfig]),
  ];
  return acls.flatMap(({ principal, grants }) =>
    grants.map((grant) =>
      [
        ...connection,
        '--add',
        '--allow-principal',
        principal,
        ...grant.operations.flatMap((operation) => ['--operation', OPERATION_NAMES[operation]]),
        ...resourceArguments(grant),
      ]
        .map(shellWord)
        .join(' '),
    ),
  );
}
