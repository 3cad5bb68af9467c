import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BatonError } from '@baton/errors';
import type { KafkaSecurity } from '@baton/kafka';
import { createCertificateAuthority, type IssuedCertificate } from './certificates.js';
import { spawnJava } from './java-process.js';
import { formatDuration, waitProgress } from './progress.js';
import { renderProperties, renderSecuredServerProperties } from './server-properties.js';
import {
  launchLocalKafka,
  type NodeDirs,
  type KafkaRuntime,
  type LocalKafka,
  type StartLocalKafkaOptions,
} from './start-local-kafka.js';

export type ScramMechanism = 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

export interface ScramUser {
  name: string;
  password: string;
  mechanism: ScramMechanism;
}

/** The broker's own TLS identity: its only super user, for what needs one (applying ACLs). */
export interface KafkaAdminIdentity {
  /** The principal's name, as in `User:<principal>`. */
  principal: string;
  /** PEM files: the certificate chain, and the private key encrypted with `keyPassword`. */
  certPath: string;
  keyPath: string;
  keyPassword: string;
  /** Connect to `mtlsBrokers` with this (PEM contents, not paths) to act as the super user. */
  security: KafkaSecurity;
}

/** A broker with no plaintext listener, its users and ACLs in its own hands. */
export interface SecuredLocalKafka extends LocalKafka {
  /** The SASL_SSL listener (`localhost:<port>`): SCRAM-SHA-256 and SCRAM-SHA-512 logins. */
  brokers: string[];
  /** The SSL listener (`localhost:<port>`) requiring a client certificate: mutual TLS. */
  mtlsBrokers: string[];
  /** The PEM CA every certificate of this broker, its own and its clients', chains to. */
  caPath: string;
  /** The broker's super-user identity, for applying ACLs; Baton's services never get it. */
  admin: KafkaAdminIdentity;
  /**
   * A client certificate for `CN=<cn>`, signed by the broker's CA: over `mtlsBrokers` it is
   * `User:<cn>`, the same principal as the SCRAM user `<cn>`. Its key is unencrypted PKCS#8, 0600.
   */
  issueClientCertificate(cn: string): Promise<IssuedCertificate>;
  /**
   * A server certificate for `CN=<cn>` and `altNames` (e.g. ['IP:127.0.0.1']), signed by the same
   * CA, so a local server beside the broker (the registry's front) is trusted with the same CA file.
   */
  issueServerCertificate(cn: string, altNames: string[]): Promise<IssuedCertificate>;
  /**
   * Creates or replaces SCRAM credentials, resolving once the broker describes them all. The
   * passwords go to a Java tool's stdin: they are in no process's argv and no log line.
   */
  addScramUsers(users: ScramUser[]): Promise<void>;
}

export type StartSecuredLocalKafkaOptions = StartLocalKafkaOptions;

/** The broker certificate's CN, so `User:baton-local-broker`, the one super user. */
export const LOCAL_BROKER_PRINCIPAL = 'baton-local-broker';

const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MECHANISMS: readonly string[] = ['SCRAM-SHA-256', 'SCRAM-SHA-512'] satisfies ScramMechanism[];

/**
 * Starts a single-node KRaft Kafka as `startLocalKafka` does, but with no plaintext listener: a
 * throwaway CA and a broker certificate for `localhost` are made with openssl in the broker's
 * temporary directory; clients log in with SCRAM over TLS (`brokers`) or present a certificate the
 * CA signed (`mtlsBrokers`); the StandardAuthorizer allows only what ACLs grant, the broker itself
 * being the only super user. The start waits for and warms up the broker as that super user.
 */
export async function startSecuredLocalKafka(options: StartSecuredLocalKafkaOptions = {}): Promise<SecuredLocalKafka> {
  const { kafka, extra, runtime } = await launchLocalKafka(options, {
    portCount: 3,
    prepare: async (ports, dirs) => {
      const { dataDir, logDir } = dirs[0] as NodeDirs;
      const [saslPort, mtlsPort, controllerPort] = ports as [number, number, number];
      const tlsDir = join(dataDir, 'tls');
      const ca = await createCertificateAuthority(tlsDir);
      const keyPassword = randomBytes(24).toString('hex');
      const brokerCertificate = await ca.issue(LOCAL_BROKER_PRINCIPAL, {
        altNames: ['DNS:localhost', 'IP:127.0.0.1'],
        keyPassword,
      });
      const [caPem, certPem, keyPem] = await Promise.all(
        [ca.caPath, brokerCertificate.certPath, brokerCertificate.keyPath].map((path) => readFile(path, 'utf8')),
      );
      // Kafka's PEM key store file: the (encrypted) private key, then the certificate chain.
      const keystorePath = join(tlsDir, 'broker-keystore.pem');
      await writeFile(keystorePath, `${keyPem}${certPem}`, { mode: 0o600 });
      // The Java tools' admin client: the broker's own identity, over the mutual-TLS listener.
      const adminPropertiesPath = join(tlsDir, 'admin-client.properties');
      await writeFile(
        adminPropertiesPath,
        renderProperties([
          ['security.protocol', 'SSL'],
          ['ssl.keystore.type', 'PEM'],
          ['ssl.keystore.location', keystorePath],
          ['ssl.key.password', keyPassword],
          ['ssl.truststore.type', 'PEM'],
          ['ssl.truststore.location', ca.caPath],
        ]),
        { mode: 0o600 },
      );
      const admin: KafkaAdminIdentity = {
        principal: LOCAL_BROKER_PRINCIPAL,
        certPath: brokerCertificate.certPath,
        keyPath: brokerCertificate.keyPath,
        keyPassword,
        security: { tls: { ca: caPem, cert: certPem, key: keyPem, keyPassword } },
      };
      const mtlsBrokers = [`localhost:${mtlsPort}`];
      return {
        serverProperties: [
          renderSecuredServerProperties({
            saslPort,
            mtlsPort,
            controllerPort,
            logDir,
            keystorePath,
            keyPassword,
            truststorePath: ca.caPath,
            brokerPrincipal: LOCAL_BROKER_PRINCIPAL,
          }),
        ],
        brokers: [`localhost:${saslPort}`],
        waitBrokers: mtlsBrokers,
        waitSecurity: admin.security,
        extra: { ca, admin, mtlsBrokers, adminPropertiesPath },
      };
    },
  });

  let stopped = false;
  const stop = async (): Promise<void> => {
    stopped = true;
    await kafka.stop();
  };
  const ensureRunning = (what: string): void => {
    if (stopped) throw new BatonError('KAFKA_UNAVAILABLE', `Cannot ${what}: the local Kafka broker was stopped.`);
  };
  return {
    ...kafka,
    stop,
    mtlsBrokers: extra.mtlsBrokers,
    caPath: extra.ca.caPath,
    admin: extra.admin,
    issueClientCertificate: async (cn) => {
      ensureRunning('issue a client certificate');
      if (cn === LOCAL_BROKER_PRINCIPAL) throw reservedName(cn);
      return extra.ca.issue(cn);
    },
    issueServerCertificate: async (cn, altNames) => {
      ensureRunning('issue a server certificate');
      if (cn === LOCAL_BROKER_PRINCIPAL) throw reservedName(cn);
      return extra.ca.issue(cn, { altNames });
    },
    addScramUsers: async (users) => {
      ensureRunning('add SCRAM users');
      await addScramUsers(runtime, extra.mtlsBrokers[0] as string, extra.adminPropertiesPath, users);
    },
  };
}

/**
 * Runs infra/kafka/ScramUsers.java (Java's single-file source mode, the broker's classpath) as the
 * broker's super user; the users, passwords included, go to its stdin, one `name mechanism
 * password` line each.
 */
async function addScramUsers(
  runtime: KafkaRuntime,
  bootstrap: string,
  adminPropertiesPath: string,
  users: ScramUser[],
): Promise<void> {
  if (users.length === 0) return;
  for (const user of users) checkScramUser(user);
  const names = [...new Set(users.map((user) => user.name))].join(', ');
  const startedAt = Date.now();
  const tool = spawnJava(
    [
      ...runtime.toolJvmOptions,
      '-cp',
      runtime.classpath,
      join(runtime.kafkaDir, 'ScramUsers.java'),
      bootstrap,
      adminPropertiesPath,
    ],
    {
      input: users.map((user) => `${user.name} ${user.mechanism} ${user.password}\n`).join(''),
      ...(runtime.logFile !== undefined && { logFile: runtime.logFile }),
    },
  );
  const progress = waitProgress(runtime.onProgress, `the SCRAM credentials of ${names}`);
  const ticker = setInterval(() => progress(Date.now() - startedAt), 1_000);
  let exit;
  try {
    exit = await tool.exited;
  } finally {
    clearInterval(ticker);
  }
  if (exit.code !== 0) {
    const output = tool.outputTail();
    throw new BatonError(
      'INFRA_START_FAILED',
      `Setting the SCRAM credentials of ${names} failed (exit code ${exit.code}, signal ${exit.signal}). Its last output:\n${output}`,
      { cause: exit.error, details: { output } },
    );
  }
  runtime.onProgress(`scram credentials of ${names} set in ${formatDuration(Date.now() - startedAt)}`);
}

function checkScramUser(user: ScramUser): void {
  if (!USER_NAME.test(user.name)) {
    throw new BatonError(
      'CONFIG_INVALID',
      `A SCRAM user name must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit: ${JSON.stringify(user.name)}`,
    );
  }
  if (user.name === LOCAL_BROKER_PRINCIPAL) throw reservedName(user.name);
  if (!MECHANISMS.includes(user.mechanism)) {
    throw new BatonError('CONFIG_INVALID', `Unknown SCRAM mechanism for ${user.name}: ${String(user.mechanism)}`);
  }
  // Never the password itself in a message: only what is wrong with it.
  if (user.password === '' || /[\r\n]/.test(user.password)) {
    throw new BatonError('CONFIG_INVALID', `The SCRAM password of ${user.name} is empty or holds a line break.`);
  }
}

function reservedName(name: string): BatonError {
  return new BatonError(
    'CONFIG_INVALID',
    `${name} is the broker's own principal, its super user: no client certificate or SCRAM user may take it.`,
  );
}
