import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { applyAcls, createKafka } from '@baton/kafka';
import { batonTopology, serviceAcls } from '@baton/kafka-acls';
import type { ProgressListener, SecuredLocalKafka } from '@baton/local-infra';

/** How every service logs in to the secured local broker. */
const MECHANISM = 'SCRAM-SHA-512';

export interface SecuredPrincipals {
  /** The KAFKA_* variables `service` connects with: its own user, its password file, the CA. */
  serviceEnv(service: string): Record<string, string>;
  /**
   * The KAFKA_* variables of the local tools (npm run samples, npm run watch): the broker's own
   * identity over mutual TLS, as an operator's would be on a real cluster.
   */
  toolEnv: Record<string, string>;
}

/**
 * What `npm start -- --secure` sets up on its secured broker before a service starts: each service
 * a SCRAM-SHA-512 user of its own, with a random password in `<secretsDir>/<service>.password`
 * (0600; the process list and the logs only ever name the file), and the least-privilege ACLs of
 * Baton's topology (what `baton acls` prints), created as the broker's super user. No service is
 * a super user, so a service does only what its grants allow.
 */
export async function securePrincipals(
  kafka: SecuredLocalKafka,
  options: { services: readonly string[]; topicPrefix: string; secretsDir: string; onProgress: ProgressListener },
): Promise<SecuredPrincipals> {
  const { services, topicPrefix, secretsDir, onProgress } = options;
  const acls = serviceAcls(batonTopology(), { prefix: topicPrefix });
  const userOf = new Map(acls.map((entry) => [entry.service, entry.principal.replace(/^User:/, '')]));
  const unknown = services.filter((service) => !userOf.has(service));
  if (unknown.length > 0) {
    throw new Error(`no principal in Baton's topology for ${unknown.join(', ')}: add it to @baton/kafka-acls`);
  }

  await rm(secretsDir, { recursive: true, force: true });
  await mkdir(secretsDir, { recursive: true, mode: 0o700 });
  const passwordFile = (service: string): string => join(secretsDir, `${service}.password`);
  const users = await Promise.all(
    services.map(async (service) => {
      const password = randomBytes(24).toString('base64url');
      await writeFile(passwordFile(service), password, { mode: 0o600 });
      return { name: userOf.get(service)!, password, mechanism: MECHANISM } as const;
    }),
  );
  await kafka.addScramUsers(users);

  const admin = createKafka({ brokers: kafka.mtlsBrokers, clientId: 'baton-start', security: kafka.admin.security });
  const bindings = await applyAcls(
    admin,
    acls.filter((entry) => services.includes(entry.service)),
  );
  onProgress(`${users.length} Kafka users made, one per service, with ${bindings} ACL bindings from Baton's topology`);

  const adminKeyPasswordFile = join(secretsDir, 'local-broker-key.password');
  await writeFile(adminKeyPasswordFile, kafka.admin.keyPassword, { mode: 0o600 });
  return {
    serviceEnv: (service) => ({
      KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
      KAFKA_SSL_CA_FILE: kafka.caPath,
      KAFKA_SASL_MECHANISM: MECHANISM,
      KAFKA_SASL_USERNAME: userOf.get(service)!,
      KAFKA_SASL_PASSWORD_FILE: passwordFile(service),
    }),
    toolEnv: {
      KAFKA_BROKERS: kafka.mtlsBrokers.join(','),
      KAFKA_SECURITY_PROTOCOL: 'SSL',
      KAFKA_SSL_CA_FILE: kafka.caPath,
      KAFKA_SSL_CERT_FILE: kafka.admin.certPath,
      KAFKA_SSL_KEY_FILE: kafka.admin.keyPath,
      KAFKA_SSL_KEY_PASSWORD_FILE: adminKeyPasswordFile,
    },
  };
}
