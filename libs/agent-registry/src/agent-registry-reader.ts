import { TopicReader, type KafkaClient } from '@baton/kafka';
import { parseAgentRegistration, parseRegistrationKey, type AgentRegistration } from './agent-card.js';
import type { AgentRegistryView } from './agent-registry-view.js';
import type { RegistryLogger } from './registry-logger.js';

export interface AgentRegistryReaderOptions {
  kafka: KafkaClient;
  /** The registry topic, `<prefix>.agents`; it must exist (see ensureAgentsTopic). */
  topic: string;
  /** A group of this process's own, which never commits: each process reads every partition. */
  groupId: string;
  view: AgentRegistryView;
  logger: RegistryLogger;
  /** @default 60 s */
  catchUpTimeoutMs?: number;
  /**
   * Whether the view follows the topic as records arrive (the default), or, with `false`, only when
   * `refresh()` asks: see TopicReaderOptions.live. Every instance's heartbeat is a record: a live
   * reader takes them in batches (TopicReaderOptions.batched), so it wakes about once a second
   * rather than for each, and the view is up to BATCH_WINDOW_MS behind the topic.
   */
  live?: boolean;
}

/**
 * Keeps an AgentRegistryView in step with the registry topic. `start` reads the topic from its
 * beginning and resolves once it has read up to the end offsets the topic had then, so the view is
 * complete before it is used (the router takes no handoff before); it then goes on reading, or,
 * not `live`, reads on only when refreshed.
 */
export class AgentRegistryReader {
  private readonly reader: TopicReader;
  /** Set once the topic has been read to its end at start: from then on instances coming and going are logged. */
  private loaded = false;

  constructor(private readonly options: AgentRegistryReaderOptions) {
    this.reader = new TopicReader({
      kafka: options.kafka,
      groupId: options.groupId,
      topics: [options.topic],
      catchUp: { timeoutMs: options.catchUpTimeoutMs ?? 60_000 },
      live: options.live,
      batched: options.live !== false,
      onRecord: (record) => {
        if (record.key === null) return;
        if (record.value === null) {
          this.apply(record.key, null);
          return;
        }
        try {
          this.apply(record.key, parseAgentRegistration(record.value));
        } catch (error) {
          // The newest record of the instance is unreadable: what it replaced no longer holds either.
          this.apply(record.key, null);
          options.logger.warn({ event: 'registry.unreadable', key: record.key, err: error }, 'unreadable registration');
        }
      },
    });
  }

  get view(): AgentRegistryView {
    return this.options.view;
  }

  get isRunning(): boolean {
    return this.reader.isRunning;
  }

  async start(): Promise<void> {
    await this.reader.start();
    this.loaded = true;
  }

  /** Resolves once the view holds every record the topic has now; see TopicReader.refresh. */
  refresh(): Promise<void> {
    return this.reader.refresh();
  }

  stop(): Promise<void> {
    return this.reader.stop();
  }

  /** Applies a record to the view, logging an instance's first registration and its withdrawal once loaded. */
  private apply(key: string, registration: AgentRegistration | null): void {
    const { view, logger } = this.options;
    const parsed = parseRegistrationKey(key);
    const had = parsed !== undefined && view.hasInstance(parsed.agentId, parsed.instanceId);
    view.apply(key, registration);
    if (!this.loaded || parsed === undefined) return;
    const ids = { agent_id: parsed.agentId, instance_id: parsed.instanceId };
    if (registration !== null && !had)
      logger.info({ event: 'registry.instance_registered', ...ids }, 'agent registered');
    if (registration === null && had) {
      logger.info({ event: 'registry.instance_deregistered', ...ids }, 'agent deregistered');
    }
  }
}
