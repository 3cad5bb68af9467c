/**
 * `npm run bench:brokers [N] [--brokers B]`: the cluster rows of `npm run bench -- --brokers 3`
 * alone (a few minutes instead of the whole bench): the full path through a router and bench_agent
 * on a cluster of B brokers (default 3) beside the bench's one broker, in paired rounds of N
 * handoffs (default 10,000), then the light load on the cluster (cluster-path.ts). Prints the same
 * lines as the bench's report, then its JSON line.
 */

import { SchemaRegistryClient, createHandoffCodec } from '@baton/wire';
import { benchArgs } from './bench-args.js';
import { startBenchRun } from './bench-processes.js';
import { clusterPathLines } from './cluster-figures.js';
import { benchClusterPath } from './cluster-path.js';
import { deleteRunTopics } from './run-topics.js';
import { AGENT, PARTITIONS, TASKS, progress } from './bench-run-settings.js';

const args = benchArgs(process.argv.slice(2), process.env);
const nodes = args.brokers > 1 ? args.brokers : 3;
const { infrastructure, brokers, topics, processes } = await startBenchRun(PARTITIONS, progress);
try {
  const registry = new SchemaRegistryClient({ url: infrastructure.schemaRegistryUrl });
  const result = await benchClusterPath({
    brokers,
    nodes,
    topicPrefix: topics.prefix,
    count: args.messages,
    tasks: TASKS,
    registry,
    codec: await createHandoffCodec(registry),
    agentId: AGENT,
    processes,
    progress,
  });
  process.stdout.write(`${clusterPathLines(result, TASKS).join('\n')}\n`);
  process.stdout.write(`${JSON.stringify({ event: 'bench.brokers', ...result })}\n`);
} catch (error) {
  progress(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await processes.stopAll();
  await deleteRunTopics(brokers, topics.prefix, progress);
  await infrastructure.stop();
}
