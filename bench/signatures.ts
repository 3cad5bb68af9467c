/**
 * `npm run bench:signatures [N]`: the two signature rows of `npm run bench` alone, for a change to
 * the cost of trust (two or three minutes instead of the whole bench): the per-message costs in
 * this process (signature-costs.ts), then the paired rounds of N handoffs (default 10,000) through
 * a router and bench_agent with signatures off and a pair requiring them (signature-full-path.ts).
 * Prints the same lines as the bench's report, then its JSON line.
 */
import { createKafka, kafkaSecurityFromEnv, RecordProducer } from '@baton/kafka';
import { SchemaRegistryClient } from '@baton/wire';
import { benchArgs } from './bench-args.js';
import { startBenchRun } from './bench-processes.js';
import { deleteRunTopics } from './run-topics.js';
import { measureSignatureCosts } from './signature-costs.js';
import { signatureCostLines, signedPathLines } from './signature-figures.js';
import { benchSignedPath } from './signature-full-path.js';
import { AGENT, PARTITIONS, TASKS, progress } from './bench-run-settings.js';

const args = benchArgs(process.argv.slice(2), process.env);
const { infrastructure, brokers, topics, processes } = await startBenchRun(PARTITIONS, progress);
const kafka = createKafka({ brokers, clientId: 'bench', security: kafkaSecurityFromEnv(process.env) });
const producer = new RecordProducer(kafka);
try {
  const registry = new SchemaRegistryClient({ url: infrastructure.schemaRegistryUrl });
  progress('signature costs per message: canonical JSON, sign and verify against Avro encode and decode');
  const costs = await measureSignatureCosts({ registry, progress });
  await producer.connect();
  const fullPath = await benchSignedPath({
    brokers,
    topicPrefix: topics.prefix,
    count: args.messages,
    tasks: TASKS,
    registry,
    agentId: AGENT,
    producer,
    processes,
    progress,
  });
  const lines = [
    'Signatures, per message in this process:',
    ...signatureCostLines(costs.rows),
    `Signatures on the full path: ${fullPath.handoffs} handoffs (${TASKS} tasks) per pass, a pair off and a pair required taking turns:`,
    ...signedPathLines(fullPath),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(`${JSON.stringify({ event: 'bench.signatures', costs, fullPath })}\n`);
} catch (error) {
  progress(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await producer.disconnect().catch(() => undefined);
  await processes.stopAll();
  await deleteRunTopics(brokers, topics.prefix, progress);
  await infrastructure.stop();
}
