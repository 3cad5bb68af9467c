import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startRegistryFront, type RegistryFront, type SecuredLocalKafka } from '@baton/local-infra';
import { SchemaRegistryClient, serviceCodecs } from '@baton/wire';

/** The principal `npm start` registers Baton's schemas as: the one writer, its password never on disk. */
const SCHEMA_WRITER = 'baton-schemas';
/** The local tools' principal (npm run samples, npm run watch): a reader, as every service is. */
const TOOLS_PRINCIPAL = 'local-tools';

export interface SecuredRegistry {
  /** The front's Confluent-compatible API over HTTPS. */
  url: string;
  /** The SCHEMA_REGISTRY_* variables `service` connects with: the front, its own reader, the CA. */
  serviceEnv(service: string): Record<string, string>;
  /** The SCHEMA_REGISTRY_* variables of the local tools: the front, their reader, the CA. */
  toolEnv: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * What `npm start -- --secure` puts in front of the local registry, which listens on loopback
 * with no authentication of its own: an HTTPS front (a certificate of the broker's CA) that asks
 * each caller for its basic credentials. Every service and the local tools get a reader of their
 * own (a random password in `<secretsDir>/registry/<name>.password`, 0600); Baton's schemas are
 * registered here, before any service starts, as the one writer, whose password stays in this
 * process. A service then only looks its schemas up, and nothing started here can change them.
 */
export async function secureRegistry(
  kafka: SecuredLocalKafka,
  options: { upstreamUrl: string; services: readonly string[]; secretsDir: string },
): Promise<SecuredRegistry> {
  const dir = join(options.secretsDir, 'registry');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const passwordFile = (name: string): string => join(dir, `${name}.password`);
  const readers = [...options.services, TOOLS_PRINCIPAL];
  const readerPasswords = await Promise.all(
    readers.map(async (name) => {
      const password = randomBytes(24).toString('base64url');
      await writeFile(passwordFile(name), password, { mode: 0o600 });
      return { username: name, password, mayWrite: false };
    }),
  );
  const writer = { username: SCHEMA_WRITER, password: randomBytes(24).toString('base64url'), mayWrite: true };
  const front: RegistryFront = await startRegistryFront({
    upstreamUrl: options.upstreamUrl,
    tls: await kafka.issueServerCertificate('schema-registry', ['IP:127.0.0.1']),
    principals: [...readerPasswords, writer],
  });
  try {
    const asWriter = new SchemaRegistryClient({
      url: front.url,
      basicAuth: { username: writer.username, password: writer.password },
      ca: await readFile(kafka.caPath, 'utf8'),
    });
    await serviceCodecs(asWriter).register();
  } catch (error) {
    await front.stop();
    throw error;
  }
  const envOf = (name: string): Record<string, string> => ({
    SCHEMA_REGISTRY_URL: front.url,
    SCHEMA_REGISTRY_USERNAME: name,
    SCHEMA_REGISTRY_PASSWORD_FILE: passwordFile(name),
    SCHEMA_REGISTRY_CA_FILE: kafka.caPath,
  });
  return { url: front.url, serviceEnv: envOf, toolEnv: envOf(TOOLS_PRINCIPAL), stop: front.stop };
}
