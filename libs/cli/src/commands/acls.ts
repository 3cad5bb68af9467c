import { batonTopology, kafkaAclsCommands, serviceAcls, strimziKafkaUsers } from '@baton/kafka-acls';
import { stringOption } from '../args.js';
import type { Command } from '../context.js';
import { usageError } from '../errors.js';

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw usageError(`--${name} must be ${allowed.join(' or ')}, not "${value}"`);
  }
  return value as T;
}

/**
 * `baton acls`: each Baton service's principal and the ACLs it needs (@baton/kafka-acls), printed
 * as kafka-acls.sh commands or as Strimzi KafkaUser resources. Connects to nothing.
 */
export const acls: Command = async ({ options, io, print, printJson, json }) => {
  const prefix = stringOption(options, 'prefix') ?? (io.env.BATON_TOPIC_PREFIX || 'baton');
  const format = oneOf('format', stringOption(options, 'format'), ['kafka-acls', 'strimzi'] as const, 'kafka-acls');
  const authentication = oneOf(
    'authentication',
    stringOption(options, 'authentication'),
    ['scram-sha-512', 'tls'] as const,
    'scram-sha-512',
  );
  let granted;
  try {
    granted = serviceAcls(batonTopology(), { prefix });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (json) return printJson(granted);
  if (format === 'strimzi') {
    const namespace = stringOption(options, 'namespace');
    const cluster = stringOption(options, 'cluster') ?? 'baton';
    io.stdout(
      strimziKafkaUsers(granted, { cluster, authentication, ...(namespace === undefined ? {} : { namespace }) }),
    );
    return;
  }
  const commandConfig = stringOption(options, 'command-config');
  print(
    kafkaAclsCommands(granted, {
      bootstrapServer: stringOption(options, 'bootstrap-server') ?? 'localhost:9092',
      ...(commandConfig === undefined ? {} : { commandConfig }),
    }),
  );
};
