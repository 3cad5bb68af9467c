import { randomUUID } from 'node:crypto';
import { BatonError } from '@baton/errors';
import {
  fetchTopicPartitions,
  RecordProducer,
  TopicReader,
  type ConsumedRecord,
  type KafkaClient,
  type OutputRecord,
} from '@baton/kafka';
import type { Logger } from '@baton/runtime';
import { parseWorkflowState, type WorkflowState } from './workflow-state.js';

/** The key of barrier records, which tell the store it has read everything committed before them. */
const BARRIER_KEY = '__baton.barrier__';

/**
 * The planner's compacted state topic: one record per parent task (keyed by its task_id), the
 * workflow's latest state.
 */
export function workflowsTopic(prefix: string): string {
  return `${prefix}.agent.planner_agent.workflows`;
}

export interface WorkflowStoreOptions {
  kafka: KafkaClient;
  topic: string;
  /** A group of this instance's own, which never commits: every start reads the topic from the beginning. */
  groupId: string;
  logger: Logger;
  /** How long `sync` may wait for the topic to be read. @default 30 s */
  syncTimeoutMs?: number;
}

/**
 * The planner's workflows, derived from its state topic alone: nothing lives only in memory. A
 * state record is one of the outputs of the handoff that changed the workflow, committed in the
 * same transaction as its offset, so the topic holds exactly what the planner has committed.
 *
 * Before deciding on a handoff, the planner calls `sync`: a barrier record goes to every
 * partition of the topic and the store reads until it has seen them all. Committed transactions
 * come before the barrier in each partition (a transaction still open holds the committed-only
 * reader back until it ends), so the store then holds every state committed before the handoff,
 * whichever instance committed it: after a restart, a rebalance, or a retry of an aborted attempt.
 */
export class WorkflowStore {
  private readonly workflows = new Map<string, WorkflowState>();
  private readonly barriers = new Map<string, { partitions: Set<number>; seen: () => void }>();
  private readonly reader: TopicReader;
  private readonly producer: RecordProducer;
  private partitions: number[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: WorkflowStoreOptions) {
    // Live, committed records only: a barrier is read as soon as it is written (the broker answers
    // a waiting fetch when data arrives), once every transaction before it has ended.
    this.reader = new TopicReader({
      kafka: options.kafka,
      groupId: options.groupId,
      topics: [options.topic],
      onRecord: (record) => this.apply(record),
    });
    this.producer = new RecordProducer(options.kafka);
  }

  /**
   * Starts reading the topic from its beginning. It does not wait to be up to date: a planner
   * killed mid-transaction leaves that transaction open, holding committed-only readers back until
   * this instance's consumer fences it, which happens only once the consumer runs. Each decision
   * calls `sync` first, by which time it has.
   */
  async start(): Promise<void> {
    this.partitions = await fetchTopicPartitions(this.options.kafka, this.options.topic);
    await this.producer.connect();
    await this.reader.start();
  }

  /** The workflow of `parentTaskId` as last committed, or undefined when it was never planned. */
  get(parentTaskId: string): WorkflowState | undefined {
    return this.workflows.get(parentTaskId);
  }

  /** Resolves once the store holds every state committed before the call. */
  async sync(): Promise<void> {
    const id = randomUUID();
    const timeoutMs = this.options.syncTimeoutMs ?? 30_000;
    const seen = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.barriers.delete(id);
        reject(new BatonError('KAFKA_UNAVAILABLE', `${this.options.topic} not read up to date within ${timeoutMs} ms`));
      }, timeoutMs);
      this.barriers.set(id, {
        partitions: new Set(this.partitions),
        seen: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
    // Observed here so a timeout while sending is not an unhandled rejection.
    seen.catch(() => undefined);
    try {
      await this.producer.send(
        this.partitions.map((partition) => ({ topic: this.options.topic, key: BARRIER_KEY, value: id, partition })),
      );
    } catch (error) {
      this.barriers.get(id)?.seen();
      this.barriers.delete(id);
      throw new BatonError('KAFKA_UNAVAILABLE', `barrier not written to ${this.options.topic}: ${String(error)}`, {
        cause: error,
      });
    }
    await seen;
  }

  /** The state as a record of the topic, to commit with the handoff that changed it. */
  record(state: WorkflowState): OutputRecord {
    return {
      topic: this.options.topic,
      key: state.parent_task_id,
      value: Buffer.from(JSON.stringify(state)),
      headers: { 'content-type': 'application/json' },
    };
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await Promise.allSettled([this.reader.stop(), this.producer.disconnect()]);
    })();
    return this.stopping;
  }

  private apply({ partition, key, value }: ConsumedRecord): void {
    if (key === null) return;
    if (key === BARRIER_KEY) {
      const id = value?.toString() ?? '';
      const barrier = this.barriers.get(id);
      if (barrier === undefined) return;
      barrier.partitions.delete(partition);
      if (barrier.partitions.size > 0) return;
      this.barriers.delete(id);
      barrier.seen();
      return;
    }
    if (value === null) {
      this.workflows.delete(key);
      return;
    }
    try {
      this.workflows.set(key, parseWorkflowState(value));
    } catch (error) {
      // The newest state of the workflow is unreadable, so the older one it replaced is no longer current either.
      this.workflows.delete(key);
      this.options.logger.warn(
        { event: 'workflow.state_unreadable', task_id: key, err: error },
        'unreadable workflow state skipped',
      );
    }
  }
}
