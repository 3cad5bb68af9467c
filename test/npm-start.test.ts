import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import {
  HANDOFF_OUTCOME_AVRO_SCHEMA,
  HANDOFF_SUBJECT,
  LIFECYCLE_SUBJECT,
  STAGED_CONTEXT_AVRO_SCHEMA,
  recordNameSubject,
  registryOptionsFromEnv,
} from '@baton/wire';
import { topicNames } from '@baton/kafka';
import { discoverServices } from '../scripts/lib/service-entries.js';
import { runBaton } from './helpers/cli-process.js';
import { NpmStartRun, type RunProcess } from './helpers/npm-start.js';
import { waitFor } from './helpers/wait-for.js';

/**
 * `npm start` as a person runs it, with its own Kafka and registry (local JVMs, not the shared
 * broker: their shutdown is what is checked), stopped the three ways it is stopped: Ctrl-C in its
 * terminal, SIGTERM to npm alone (what `timeout` and service managers send), and SIGTERM to the
 * start script before everything is up. Each time every process goes within 10 s, the services
 * before the registry and Kafka, and nothing is logged at error level, nor warned, on the terminal
 * or in the log files. About a minute per run.
 */

const require = createRequire(import.meta.url);

/** A cold start bundles the services and starts two JVMs and 14 Node processes on 2 shared cores. */
const START_TIMEOUT_MS = 240_000;
const STOP_LIMIT_MS = 10_000;
const READY = /^Ctrl-C stops everything\.$/;

let run: NpmStartRun | undefined;

afterEach(async () => {
  await run?.dispose();
  run = undefined;
});

/** What was running just before the stop, by kind. */
interface Census {
  all: RunProcess[];
  jvms: RunProcess[];
  services: RunProcess[];
}

function census(current: NpmStartRun): Census {
  const all = current.processes();
  return {
    all,
    jvms: all.filter((process) => /(^|\/)java /.test(process.command)),
    services: all.filter((process) => process.command.includes('/dist/services/')),
  };
}

/** Sends the stop and resolves with the milliseconds until no process of the run is left. */
async function stopWithin(current: NpmStartRun, limitMs: number, send: () => void): Promise<number> {
  const sentAt = Date.now();
  send();
  for (;;) {
    const left = current.processes();
    if (left.length === 0) return Date.now() - sentAt;
    if (Date.now() - sentAt > limitMs) {
      const listing = left.map((process) => `${process.pid} ${process.command.slice(0, 120)}`).join('\n');
      throw new Error(`${left.length} processes still running ${limitMs} ms after the stop:\n${listing}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SEVERE = new Set(['error', 'fatal', 50, 60]);
const WARNING = new Set(['warn', 40]);

/** Nothing at error level (or warned) on the terminal or in any log file, and the stop order. */
function expectCleanRun(current: NpmStartRun, before: Census): void {
  const terminal = current.lines;
  // npm's own notices about this machine's npm configuration are not the run's.
  const ours = terminal.filter((line) => !line.startsWith('npm warn '));
  expect(ours.filter((line) => /\b(ERROR|FATAL)\b|^npm (error|ERR!)|"level":"(error|fatal)"/.test(line))).toEqual([]);
  expect(ours.filter((line) => /^\s*\S+\s+WARN\s/.test(line) || /"level":"warn"/.test(line))).toEqual([]);

  const services = new Set(spawnedServices(current));
  const logNames = current.logNames();
  for (const name of logNames) {
    if (name === 'kafka' || name === 'registry') {
      const { other } = current.logRecords(name);
      expect(
        other.filter((line) => /\bERROR\b|\bFATAL\b/.test(line)),
        `${name}.log`,
      ).toEqual([]);
      continue;
    }
    const { records, other } = current.logRecords(name);
    expect(
      records.filter((record) => SEVERE.has(record['level'] as string)),
      `${name}.log`,
    ).toEqual([]);
    expect(
      records.filter((record) => WARNING.has(record['level'] as string)),
      `${name}.log`,
    ).toEqual([]);
    // A stack trace or a Node warning would be a line that is not JSON.
    expect(other, `${name}.log`).toEqual([]);
  }

  // The services stopped before the registry and Kafka were asked to: in start.ts's own record, by
  // the services' own last lines, and on the terminal.
  const events = current.logRecords('baton-start').records;
  const timeOf = (record: Record<string, unknown>): number => Date.parse(String(record['time']));
  const infrastructureStopping = events.find((record) => record['event'] === 'infrastructure.stopping');
  expect(infrastructureStopping).toBeDefined();
  const exits = events.filter((record) => record['event'] === 'service.exited');
  expect(exits.map((record) => record['name']).sort()).toEqual([...services].sort());
  for (const exit of exits) expect(timeOf(exit)).toBeLessThanOrEqual(timeOf(infrastructureStopping!));
  for (const name of logNames.filter((logName) => services.has(logName))) {
    // A service stopped before it logged anything has nothing to compare.
    const last = current.logRecords(name).records.at(-1);
    if (last !== undefined) {
      expect(timeOf(last), `${name}'s last line`).toBeLessThanOrEqual(timeOf(infrastructureStopping!));
    }
  }
  if (before.jvms.length > 0) {
    const servicesStopped = terminal.findIndex((line) => /^\[baton\] \d+ services stopped in /.test(line));
    const kafkaStopped = terminal.findIndex((line) => /^\[baton\] kafka broker on \S+ stopped in /.test(line));
    const registryStopped = terminal.findIndex((line) => /^\[baton\] schema registry on \S+ stopped in /.test(line));
    expect(kafkaStopped).toBeGreaterThan(-1);
    expect(registryStopped).toBeGreaterThan(-1);
    if (services.size > 0) {
      expect(servicesStopped).toBeGreaterThan(-1);
      expect(kafkaStopped).toBeGreaterThan(servicesStopped);
      expect(registryStopped).toBeGreaterThan(servicesStopped);
    }
  }
  expect(terminal.at(-1)).toMatch(/^\[baton\] stopped in \d+\.\ds$/);

  // The JVMs' data and temporary directories went with them.
  for (const jvm of before.jvms) {
    const tmpdir = /-Djava\.io\.tmpdir=(\S+)/.exec(jvm.command)?.[1];
    expect(tmpdir).toBeDefined();
    expect(existsSync(tmpdir!), tmpdir).toBe(false);
  }
}

/** The services spawned before the stop, from start.ts's own record. */
function spawnedServices(current: NpmStartRun): string[] {
  const spawned = current.logRecords('baton-start').records.filter((record) => record['event'] === 'service.spawned');
  return spawned.map((record) => String(record['name']));
}

/** The pid of the start script itself, from its first event. */
function startScriptPid(current: NpmStartRun): number {
  const starting = current.logRecords('baton-start').records.find((record) => record['event'] === 'baton.starting');
  return Number(starting?.['pid']);
}

describe('npm start', () => {
  test('comes up with one line per service, then stops on Ctrl-C (SIGINT to its process group) cleanly within 10 s', async () => {
    const names = await discoverServices();
    run = await NpmStartRun.start();
    await run.waitForLine(READY, START_TIMEOUT_MS);
    for (const name of names) {
      expect(run.lines.filter((line) => new RegExp(`^  ${name} +ready  http://`).test(line))).toHaveLength(1);
    }
    const before = census(run);
    expect(before.services).toHaveLength(names.length);
    expect(before.jvms).toHaveLength(2);
    // The JVMs and the services are out of the terminal's reach: only npm's group gets its Ctrl-C.
    for (const process of [...before.jvms, ...before.services]) expect(process.pgid).not.toBe(run.pid);

    const current = run;
    const stopMs = await stopWithin(run, STOP_LIMIT_MS, () => process.kill(-current.pid, 'SIGINT'));
    console.log(`npm start: every process gone ${stopMs} ms after Ctrl-C`);
    expectCleanRun(run, before);
  }, 300_000);

  test('stops cleanly within 10 s on SIGTERM to the npm process alone', async () => {
    run = await NpmStartRun.start();
    await run.waitForLine(READY, START_TIMEOUT_MS);
    const before = census(run);
    expect(before.jvms).toHaveLength(2);

    const current = run;
    const stopMs = await stopWithin(run, STOP_LIMIT_MS, () => process.kill(current.pid, 'SIGTERM'));
    console.log(`npm start: every process gone ${stopMs} ms after SIGTERM to npm`);
    expectCleanRun(run, before);
  }, 300_000);

  test('stops cleanly within 10 s on SIGTERM to the start script while services are still starting', async () => {
    run = await NpmStartRun.start();
    // The router is up; the other services are starting.
    await run.waitForLine(/^ {2}router +ready {2}http:\/\//, START_TIMEOUT_MS);
    const before = census(run);
    expect(before.jvms).toHaveLength(2);
    expect(run.lines.some((line) => READY.test(line))).toBe(false);

    const current = run;
    const stopMs = await stopWithin(run, STOP_LIMIT_MS, () => process.kill(startScriptPid(current), 'SIGTERM'));
    console.log(`npm start: every process gone ${stopMs} ms after SIGTERM to start.ts during start-up`);
    expectCleanRun(run, before);
  }, 300_000);

  test('--secure: every service logs in as its own SCRAM user with its ACLs and reads the registry as its own principal, the samples complete, the printed credential publishes only as the senders from outside, no password shows, the stop removes them', async () => {
    const names = await discoverServices();
    run = await NpmStartRun.start(['--secure']);
    await run.waitForLine(READY, START_TIMEOUT_MS);
    expect(run.lines.some((line) => /^Kafka is secured: SASL_SSL \(SCRAM-SHA-512\) at localhost:\d+/.test(line))).toBe(
      true,
    );
    const secretsDir = join(run.stateDir, 'secrets');
    const passwordFiles = readdirSync(secretsDir).filter((file) => file.endsWith('.password'));
    expect(passwordFiles.sort()).toEqual(
      [...names.map((name) => `${name}.password`), 'local-broker-key.password'].sort(),
    );
    // The registry, behind its HTTPS front: a reader per service and for the tools, BACKWARD globally.
    const registryPasswordFiles = readdirSync(join(secretsDir, 'registry')).sort();
    expect(registryPasswordFiles).toEqual([...names, 'local-tools'].map((name) => `${name}.password`).sort());
    const passwords = [
      ...passwordFiles.map((file) => readFileSync(join(secretsDir, file), 'utf8')),
      ...registryPasswordFiles.map((file) => readFileSync(join(secretsDir, 'registry', file), 'utf8')),
    ];
    const connection = JSON.parse(readFileSync(join(run.stateDir, 'connection.json'), 'utf8')) as {
      schemaRegistryUrl: string;
      registryEnv: Record<string, string>;
    };
    expect(connection.schemaRegistryUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/apis\/ccompat\/v7$/);
    const registryAs = async (method: string, path: string, body?: unknown) => {
      const options = registryOptionsFromEnv(connection.registryEnv, connection.schemaRegistryUrl);
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const outgoing = httpsRequest(
          new URL(`${connection.schemaRegistryUrl}${path}`),
          {
            method,
            ca: options.ca,
            headers: {
              'content-type': 'application/vnd.schemaregistry.v1+json',
              ...(options.basicAuth
                ? {
                    authorization: `Basic ${Buffer.from(`${options.basicAuth.username}:${options.basicAuth.password}`).toString('base64')}`,
                  }
                : {}),
            },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body === undefined ? undefined : JSON.stringify(body));
      });
    };
    expect(await registryAs('GET', '/config')).toEqual({ status: 200, body: '{"compatibilityLevel":"BACKWARD"}' });
    expect(JSON.parse((await registryAs('GET', '/subjects')).body).sort()).toEqual(
      [
        HANDOFF_SUBJECT,
        recordNameSubject(HANDOFF_OUTCOME_AVRO_SCHEMA),
        LIFECYCLE_SUBJECT,
        recordNameSubject(STAGED_CONTEXT_AVRO_SCHEMA),
      ].sort(),
    );
    expect((await registryAs('PUT', '/config', { compatibility: 'NONE' })).status).toBe(403);
    // Every service, and the samples, sign with a key of their own; the secured run requires signatures.
    expect(run.lines).toContainEqual(
      `Every service signs or seals what it writes (keys and trust store in ${secretsDir}/signing/); signatures are required: an unsigned or forged message is dead-lettered.`,
    );
    const signingFiles = readdirSync(join(secretsDir, 'signing')).sort();
    expect(signingFiles).toEqual(
      [...names.map((name) => `${name}.pem`), 'local-tools.pem', 'outcome-readers.pem', 'trust-store.json'].sort(),
    );
    const privateKeys = signingFiles
      .filter((file) => file.endsWith('.pem'))
      .map((file) => readFileSync(join(secretsDir, 'signing', file), 'utf8').split('\n')[1] as string);

    // The local tools connect as the broker's own identity over mutual TLS; the services route and
    // answer each sample under their own principals, or the tracker never sees them finish.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/samples.ts'], {
      env: { ...process.env, BATON_STATE_DIR: run.stateDir, KAFKA_BROKERS: '', SCHEMA_REGISTRY_URL: '' },
    });
    const taskIds = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => String((JSON.parse(line) as { task_id: string }).task_id));
    expect(taskIds).toHaveLength(5);

    // The printed credential: refused as an agent (403 FORBIDDEN at the sender), accepted as the
    // reference escalation's customer service agent, whose task then finishes like the samples'.
    const gatewayUrl = / {2}gateway +ready {2}(http:\/\/\S+)/.exec(run.lines.join('\n'))?.[1];
    const token = / BATON_TOKEN=(\S+)$/m.exec(run.lines.join('\n'))?.[1];
    expect([gatewayUrl, token].every(Boolean)).toBe(true);
    const escalation = structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as {
      metadata: Record<string, unknown>;
    };
    const publishAs = async (senderId: string) => {
      // The gateway fills message_id and timestamp; the fixture's expiration is long past.
      const metadata: Record<string, unknown> = {
        ...escalation.metadata,
        sender_id: senderId,
        task_id: `task-${randomUUID()}`,
      };
      for (const filled of ['message_id', 'timestamp', 'expiration_time']) delete metadata[filled];
      const body = { ...escalation, metadata };
      const response = await fetch(`${gatewayUrl}/v1/handoffs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        body: (await response.json()) as Record<string, unknown>,
        taskId: String(metadata.task_id),
      };
    };
    for (const agent of ['triage_agent', 'router', 'technical_support_agent_pool']) {
      const refused = await publishAs(agent);
      expect([refused.status, refused.body], agent).toEqual([
        403,
        {
          error: {
            code: 'FORBIDDEN',
            path: '/metadata/sender_id',
            message: 'the credential local may publish only as user, customer_service_agent_001',
          },
        },
      ]);
    }
    const accepted = await publishAs('customer_service_agent_001');
    expect(accepted.status).toBe(202);
    taskIds.push(accepted.taskId);
    const tracker = / {2}tracker +ready {2}(http:\/\/\S+)/.exec(run.lines.join('\n'))?.[1];
    expect(tracker).toBeDefined();
    // The services see the registry up through its front, asked with their own credentials and CA.
    expect(await (await fetch(`${tracker}/metrics`)).text()).toMatch(
      /^baton_schema_registry_up\{service="tracker"\} 1$/m,
    );
    for (const taskId of taskIds) {
      let last = 'no view';
      const view = await waitFor(
        async () => {
          const response = await fetch(`${tracker}/v1/tasks/${taskId}`);
          last = `${response.status} ${await response.clone().text()}`;
          if (!response.ok) return undefined;
          const task = (await response.json()) as { status: string; timeline: { outcome?: string }[] };
          return task.status === 'FINISH' ? task : undefined;
        },
        { description: `task ${taskId} to finish`, timeoutMs: 60_000, intervalMs: 250 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}; the tracker's last answer: ${last.slice(0, 3000)}`);
      });
      expect(view.timeline.at(-1)?.outcome, taskId).toBe('COMPLETED');
    }

    // The baton command finds what `npm start` wrote down, the brokers with the local tools' TLS
    // identity and the gateway: only the printed credential is given.
    const { topicPrefix } = JSON.parse(readFileSync(join(run.stateDir, 'connection.json'), 'utf8')) as {
      topicPrefix: string;
    };
    const fromStart = {
      BATON_STATE_DIR: run.stateDir,
      KAFKA_BROKERS: '',
      SCHEMA_REGISTRY_URL: '',
      BATON_GATEWAY_URL: '',
      BATON_TOKEN: token,
    };
    const eventsTopic = topicNames(topicPrefix).events;
    const tailed = await runBaton(['tail', eventsTopic, '--from-beginning', '--max', '1', '--json'], {
      env: fromStart,
    });
    expect([tailed.code, tailed.stderr]).toEqual([0, '']);
    const first = JSON.parse(tailed.stdout) as { topic: string; kind: string };
    expect(first.topic).toBe(eventsTopic);
    // Decoded through the secured registry, as saved: an undecodable record would say it was not.
    expect(['outcome', 'lifecycle', 'staged']).toContain(first.kind);
    const story = await runBaton(['task', accepted.taskId, '--json'], { env: fromStart });
    expect([story.code, story.stderr]).toEqual([0, '']);
    expect(JSON.parse(story.stdout)).toMatchObject({ task_id: accepted.taskId });
    const listed = await runBaton(['tasks', '--search', accepted.taskId, '--json'], { env: fromStart });
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    expect(JSON.parse(listed.stdout)).toMatchObject({ total: 1, tasks: [{ task_id: accepted.taskId }] });

    const before = census(run);
    expect(before.services).toHaveLength(names.length);
    const seen = [
      ...run.lines,
      ...before.all.map((process) => process.command),
      ...run.logNames().flatMap((name) => readFileSync(join(run!.stateDir, 'logs', `${name}.log`), 'utf8').split('\n')),
    ];
    for (const secret of [...passwords, ...privateKeys])
      expect(seen.filter((line) => line.includes(secret))).toEqual([]);

    const current = run;
    await stopWithin(run, STOP_LIMIT_MS, () => process.kill(-current.pid, 'SIGINT'));
    expectCleanRun(run, before);
    expect(existsSync(secretsDir)).toBe(false);
  }, 300_000);
});
