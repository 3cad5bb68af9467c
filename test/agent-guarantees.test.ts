import { afterEach, describe, expect, inject, it } from 'vitest';
import { parseLedgerEntry } from '@baton/agent-sdk';
import { createKafka, topicNames, type TopicNames } from '@baton/kafka';
import { buildHandoff, type Immutable, type HandoffMessage } from '@baton/protocol';
import { HandoffPublisher } from '@baton/runtime';
import { SchemaRegistryClient, createHandoffCodec } from '@baton/wire';
import {
  collectRecords,
  errorAnswer,
  routeNotFound,
  startServiceProcess,
  uniqueName,
  waitFor,
  type RecordCollector,
  type ServiceProcess,
} from './helpers/index.js';

const brokers = inject('kafkaBrokers');
const registryUrl = inject('schemaRegistryUrl');
const AGENT = 'probe_agent';
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  topics: TopicNames;
  agent: ServiceProcess;
  publisher: HandoffPublisher;
  ledger: RecordCollector;
  dlq: RecordCollector;
  startAgent(instance: string): Promise<ServiceProcess>;
}

async function rig(partitions: number): Promise<Rig> {
  const topics = topicNames(uniqueName('probe'));
  const env = {
    KAFKA_BROKERS: brokers.join(','),
    SCHEMA_REGISTRY_URL: registryUrl,
    BATON_TOPIC_PREFIX: topics.prefix,
    BATON_PARTITIONS: String(partitions),
    BATON_DEFAULT_RETRY_LIMIT: '2',
    LOG_LEVEL: 'warn',
  };
  const startAgent = async (instance: string): Promise<ServiceProcess> => {
    const agent = await startServiceProcess('test/fixtures/probe-agent/main.ts', {
      ...env,
      BATON_INSTANCE_ID: instance,
      LOG_LEVEL: 'info',
    });
    cleanups.push(() => agent.stop('SIGKILL'));
    return agent;
  };
  const agent = await startAgent('probe-1');
  const codec = await createHandoffCodec(new SchemaRegistryClient({ url: registryUrl }));
  const publisher = new HandoffPublisher(createKafka({ brokers, clientId: uniqueName('probe-pub') }), codec);
  cleanups.push(() => publisher.close());
  const ledger = await collectRecords(brokers, topics.ledger);
  const dlq = await collectRecords(brokers, `${topics.agentInbox(AGENT)}.dlq`);
  cleanups.push(
    () => ledger.stop(),
    () => dlq.stop(),
  );
  return { topics, agent, publisher, ledger, dlq, startAgent };
}

function probe(task: string, script: Record<string, unknown>): Immutable<HandoffMessage> {
  return buildHandoff({
    metadata: { sender_id: 'probe_test', recipient_id: AGENT, task_id: task },
    payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: JSON.stringify(script) } },
  });
}

const entries = (ledger: RecordCollector) => ledger.records.map((record) => parseLedgerEntry(record.value as Buffer));

describe('an agent service as its own process', () => {
  it('survives SIGKILL mid-run: 2,000 handoffs over 50 tasks, each processed once, in publish order per task', async () => {
    const { topics, agent, publisher, ledger, startAgent } = await rig(6);
    const inbox = topics.agentInbox(AGENT);
    const messages: Immutable<HandoffMessage>[] = [];
    for (let seq = 0; seq < 2000; seq += 1) messages.push(probe(`task-${seq % 50}`, { seq }));
    const publishing = (async () => {
      for (const message of messages) await publisher.publish(inbox, message);
    })();
    await waitFor(() => ledger.records.length >= 300, { description: '300 handoffs processed', timeoutMs: 60_000 });
    // No chance to drain or commit: whatever was in flight must be redone, and only once.
    await agent.stop('SIGKILL');
    expect(agent.child.signalCode).toBe('SIGKILL');
    const beforeRestart = ledger.records.length;
    await startAgent('probe-2');
    await publishing;
    await waitFor(() => new Set(entries(ledger).map((entry) => entry.message_id)).size === 2000, {
      description: 'all 2,000 handoffs processed',
      timeoutMs: 120_000,
    });
    expect(beforeRestart).toBeLessThan(2000);
    const all = entries(ledger);
    expect(all).toHaveLength(2000);
    const seqsByTask = new Map<string, number[]>();
    for (const entry of all)
      seqsByTask.set(entry.task_id, [...(seqsByTask.get(entry.task_id) ?? []), entry.args.seq as number]);
    expect(seqsByTask.size).toBe(50);
    for (const [task, seqs] of seqsByTask) {
      expect(seqs, task).toHaveLength(40);
      expect(seqs, task).toEqual([...seqs].sort((a, b) => a - b));
    }
  }, 240_000);

  it('shares an agent’s inbox between two instances, each handoff processed once', async () => {
    const { topics, agent, publisher, ledger, startAgent } = await rig(6);
    const second = await startAgent('probe-2');
    const readyPartitions = (service: ServiceProcess) =>
      new Set(service.logs.filter((line) => line.event === 'partition.ready').map((line) => line.partition));
    const messages = Array.from({ length: 120 }, (_, seq) => probe(`shared-${seq % 12}`, { seq }));
    for (const message of messages) await publisher.publish(topics.agentInbox(AGENT), message);
    await waitFor(() => ledger.records.length === 120, { description: '120 effects', timeoutMs: 60_000 });
    expect(new Set(entries(ledger).map((entry) => entry.message_id)).size).toBe(120);
    const mine = readyPartitions(second);
    expect(mine.size).toBeGreaterThan(0);
    expect(mine.size).toBeLessThan(6);
    expect(readyPartitions(agent).size).toBeGreaterThan(0);
  });

  it('takes a handoff published three times once', async () => {
    const { topics, publisher, ledger, agent } = await rig(3);
    // An agent's HTTP errors have every service's shape.
    expect(await errorAnswer(`${agent.address}/v1/nowhere`)).toEqual(routeNotFound('GET', '/v1/nowhere'));
    const message = probe(uniqueName('task'), { seq: 1 });
    const marker = probe(message.metadata.task_id, { seq: 2 });
    for (let i = 0; i < 3; i += 1) await publisher.publish(topics.agentInbox(AGENT), message);
    await publisher.publish(topics.agentInbox(AGENT), marker);
    await waitFor(() => entries(ledger).some((entry) => entry.message_id === marker.metadata.message_id), {
      description: 'the marker after the duplicates',
    });
    expect(entries(ledger).map((entry) => entry.args.seq)).toEqual([1, 2]);
  });

  it('retries a handler that fails twice until it succeeds, and dead-letters one that always fails', async () => {
    const { topics, publisher, ledger, dlq } = await rig(3);
    const flaky = probe(uniqueName('task'), { seq: 1, fail_times: 2 });
    const doomed = probe(uniqueName('task'), { seq: 2, always_fail: true });
    await publisher.publish(topics.agentInbox(AGENT), flaky);
    await publisher.publish(topics.agentInbox(AGENT), doomed);
    await waitFor(() => ledger.records.length === 1 && dlq.records.length === 1, {
      description: 'one effect, one dead letter',
    });
    expect(entries(ledger)[0]).toMatchObject({ message_id: flaky.metadata.message_id, args: { seq: 1, attempt: 3 } });
    expect(dlq.records[0]?.headers).toMatchObject({
      ce_id: doomed.metadata.message_id,
      'baton.dlq.error.code': 'RETRIES_EXHAUSTED',
      'baton.dlq.attempts': '3',
      'baton.dlq.consumer.group': `${topics.prefix}.agent.probe_agent`,
    });
  });

  it('lets another task on the partition finish while one retries, and keeps the retried task in order', async () => {
    const { topics, publisher, ledger } = await rig(1);
    const inbox = topics.agentInbox(AGENT);
    const a = uniqueName('task-a');
    const b = uniqueName('task-b');
    for (const message of [
      probe(a, { seq: 1, fail_times: 2 }),
      probe(a, { seq: 2 }),
      probe(b, { seq: 3 }),
      probe(b, { seq: 4 }),
    ]) {
      await publisher.publish(inbox, message);
    }
    await waitFor(() => ledger.records.length === 4, { description: 'four effects' });
    expect(entries(ledger).map((entry) => entry.args.seq)).toEqual([3, 4, 1, 2]);
  });
});
