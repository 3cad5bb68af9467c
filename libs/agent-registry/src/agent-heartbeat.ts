import { RecordProducer, type KafkaClient } from '@baton/kafka';
import { deregistrationRecord, registrationRecord, type AgentCard } from './agent-card.js';
import type { RecentFailures } from './failure-tally.js';
import type { RegistryLogger } from './registry-logger.js';

/** One record for the registry topic: a registration (value) or a tombstone (null). */
export interface RegistryRecord {
  topic: string;
  key: string;
  value: Buffer | null;
  headers?: Record<string, string>;
}

/** Where an instance's registry records go; `kafkaRegistrySink` in production, a fake in tests. */
export interface RegistrySink {
  send(record: RegistryRecord): Promise<void>;
  close(): Promise<void>;
}

/**
 * An idempotent producer of its own, outside every transaction: a heartbeat never waits for a
 * handler or a commit, and a handler never waits for a heartbeat.
 */
export function kafkaRegistrySink(kafka: KafkaClient): RegistrySink {
  const producer = new RecordProducer(kafka);
  return {
    async send(record) {
      await producer.send([record]);
    },
    close: () => producer.disconnect(),
  };
}

export interface AgentHeartbeatOptions {
  /** The registry topic, `<prefix>.agents`. */
  topic: string;
  card: AgentCard;
  sink: RegistrySink;
  logger: RegistryLogger;
  now?: () => Date;
  /** What the instance depends on that failed lately, told with each heartbeat (FailureTally). */
  failures?: () => RecentFailures | undefined;
}

/**
 * Registers an agent instance and keeps it registered: `start` publishes the card (and fails when
 * it cannot), then a timer re-publishes it every `card.heartbeat_interval_ms` with a new
 * `last_heartbeat_at`, so compaction keeps the latest; `stop` ends the timer and writes the
 * tombstone that deregisters the instance. The timer runs on its own: a slow handler (which
 * awaits, as handlers do) does not hold a heartbeat back. A heartbeat still in flight when the next
 * is due is not doubled; a failed one is logged and the next tick tries again.
 */
export class AgentHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped: Promise<void> | undefined;
  private beats = 0;

  constructor(private readonly options: AgentHeartbeatOptions) {}

  /** Heartbeats sent since start, the registration included. */
  get count(): number {
    return this.beats;
  }

  async start(): Promise<void> {
    await this.publish();
    const { card, logger } = this.options;
    logger.info(
      {
        event: 'registry.registered',
        agent_id: card.agent_id,
        instance_id: card.instance_id,
        topic: this.options.topic,
      },
      'registered',
    );
    this.timer = setInterval(() => this.beat(), card.heartbeat_interval_ms);
    this.timer.unref();
  }

  /** Deregisters (the tombstone) once; a failure is logged, not thrown, so a drain still ends cleanly. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      clearInterval(this.timer);
      this.timer = undefined;
      await this.inFlight;
      const { card, sink, topic, logger } = this.options;
      try {
        await sink.send(deregistrationRecord(topic, card.agent_id, card.instance_id));
        logger.info(
          { event: 'registry.deregistered', agent_id: card.agent_id, instance_id: card.instance_id },
          'deregistered',
        );
      } catch (error) {
        logger.warn({ event: 'registry.deregister_failed', err: error }, 'could not deregister');
      }
      await sink.close().catch(() => undefined);
    })();
    return this.stopped;
  }

  private beat(): void {
    if (this.inFlight !== undefined || this.stopped !== undefined) return;
    this.inFlight = this.publish()
      .catch((error: unknown) =>
        this.options.logger.warn({ event: 'registry.heartbeat_failed', err: error }, 'heartbeat failed'),
      )
      .finally(() => {
        this.inFlight = undefined;
      });
  }

  private async publish(): Promise<void> {
    const { topic, card, sink, now = () => new Date(), failures } = this.options;
    await sink.send(registrationRecord(topic, card, now(), failures?.()));
    this.beats += 1;
  }
}
