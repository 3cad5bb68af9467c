import { batonTopology, kafkaAclsCommands, serviceAcls, strimziKafkaUsers } from '@baton/kafka-acls';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { CliIo } from '../context.js';
import { EXIT } from '../errors.js';

/** Runs `baton` with no gateway at all: acls needs none. */
async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    readStdin: async () => '',
    stdinIsTty: true,
    env,
    signal: new AbortController().signal,
    fetch: (() => {
      throw new Error('acls must not call the gateway');
    }) as unknown as typeof fetch,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

describe('baton acls', () => {
  it("prints kafka-acls.sh commands for Baton's services, prefix baton, localhost:9092 by default", async () => {
    const { code, stdout, stderr } = await run(['acls']);
    expect({ code, stderr }).toEqual({ code: EXIT.OK, stderr: '' });
    const expected = kafkaAclsCommands(serviceAcls(batonTopology(), { prefix: 'baton' }), {
      bootstrapServer: 'localhost:9092',
    });
    expect(stdout).toBe(`${expected.join('\n')}\n`);
    expect(stdout.split('\n')[0]).toBe(
      'kafka-acls.sh --bootstrap-server localhost:9092 --add --allow-principal User:router --operation Read --operation Create --operation Describe --operation DescribeConfigs --topic baton.handoffs.inbound',
    );
  });

  it('takes the prefix, the broker and the admin properties', async () => {
    const { stdout } = await run([
      'acls',
      '--prefix',
      'prod',
      '--bootstrap-server',
      'k:9093',
      '--command-config',
      'a.properties',
    ]);
    expect(stdout.split('\n')[0]).toBe(
      'kafka-acls.sh --bootstrap-server k:9093 --command-config a.properties --add --allow-principal User:router --operation Read --operation Create --operation Describe --operation DescribeConfigs --topic prod.handoffs.inbound',
    );
  });

  it('reads the prefix from BATON_TOPIC_PREFIX', async () => {
    const { stdout } = await run(['acls'], { BATON_TOPIC_PREFIX: 'staging' });
    expect(stdout).toContain('--topic staging.handoffs.inbound\n');
    expect(stdout).not.toContain(' baton.handoffs.inbound');
  });

  it('prints Strimzi KafkaUsers', async () => {
    const { code, stdout } = await run([
      'acls',
      '--format',
      'strimzi',
      '--cluster',
      'prod',
      '--authentication',
      'tls',
      '--namespace',
      'ns',
    ]);
    expect(code).toBe(EXIT.OK);
    expect(stdout).toBe(
      strimziKafkaUsers(serviceAcls(batonTopology(), { prefix: 'baton' }), {
        cluster: 'prod',
        authentication: 'tls',
        namespace: 'ns',
      }),
    );
  });

  it('prints the grants as JSON with --json', async () => {
    const { stdout } = await run(['acls', '--json']);
    expect(JSON.parse(stdout)).toEqual(serviceAcls(batonTopology(), { prefix: 'baton' }));
  });

  it('refuses an unknown format, authentication or an illegal prefix', async () => {
    expect(await run(['acls', '--format', 'yaml'])).toEqual({
      code: EXIT.USAGE,
      stdout: '',
      stderr: 'error USAGE: --format must be kafka-acls or strimzi, not "yaml"\n',
    });
    expect((await run(['acls', '--format', 'strimzi', '--authentication', 'plain'])).stderr).toBe(
      'error USAGE: --authentication must be scram-sha-512 or tls, not "plain"\n',
    );
    expect((await run(['acls', '--prefix', 'a/b'])).stderr).toBe('error USAGE: "a/b" is not a legal topic prefix\n');
    expect((await run(['acls', 'extra'])).code).toBe(EXIT.USAGE);
  });
});
