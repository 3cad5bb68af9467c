import { parseLedgerEntry } from '@baton/agent-sdk';
import { deadLetterTopic, type TopicNames } from '@baton/kafka';
import type { OutcomeCodec } from '@baton/wire';
import { auditExactlyOnce, type Audit, type ObservedEffect, type PublishedHandoff } from './exactly-once-audit.js';
import { readCommittedByKafkajs, readTopicLog } from './read-topic.js';
import type { CollectedRecord } from './record-collector.js';

/** What a chaos run published: in publish order, with the sequence number its body carries. */
export interface ChaosHandoff extends PublishedHandoff {
  seq: number;
}

/**
 * The four places a handoff of a chaos run shows it took effect, each audited on its own. The
 * agent's COMPLETED outcome event and its `observed` ledger entry are written in the handoff's
 * transaction at the agent: together they are "took effect". The router's ROUTED event and the
 * record it put in the agent's inbox are the hop before it.
 */
export interface ChaosAudits {
  /** The agent's COMPLETED outcome events on `<prefix>.events`, by message_id. */
  completed: Audit;
  /** The agent's `observed` side effects on `<prefix>.ledger`, by message_id. */
  ledger: Audit;
  /** The router's ROUTED outcome events on `<prefix>.events`, by message_id. */
  routed: Audit;
  /** The records the router wrote to the agent's inbox, by their ce_id header (the message_id). */
  inbox: Audit;
}

export interface ChaosEffects {
  audits: ChaosAudits;
  /** Records on the router's inbound topic: more than published when the publisher sent a batch again. */
  inboundRecords: number;
  /** Records on `<inbound>.dlq` and `<inbox>.dlq`: none expected. */
  deadLetters: number;
  /** Records on the events topic other than the router's ROUTED and the agent's COMPLETED, by ce_type and source. */
  otherEvents: Record<string, number>;
  /** Ledger entries whose `seq` differs from the one the handoff's body was published with. */
  seqMismatches: number;
  /**
   * Records of transactions that were aborted (or never ended): outputs a killed service had
   * written before its transaction was cut short, then redone. More than 0 shows a kill landed
   * mid-transaction. `inbox` is the router's, `ledger` the agent's.
   */
  abortedRecords: { inbox: number; ledger: number };
  /**
   * Records of aborted transactions on the events topic that kafkajs's own read_committed consumer
   * delivers as committed (see readTopicLog): what Baton's consumers of that topic would see.
   */
  kafkajsPhantomEvents: number;
}

/**
 * Reads every topic of a finished chaos run to its end (after the services stopped, so nothing
 * more can arrive) and audits each kind of effect in the committed records.
 */
export async function auditChaosEffects(options: {
  brokers: string[];
  topics: TopicNames;
  agentId: string;
  routerId: string;
  outcomeCodec: OutcomeCodec;
  published: readonly ChaosHandoff[];
}): Promise<ChaosEffects> {
  const { brokers, topics, agentId, routerId, outcomeCodec, published } = options;
  const inbox = topics.agentInbox(agentId);
  const read = (topic: string) => readTopicLog(brokers, topic);
  const [inbound, inboxLog, eventsLog, ledgerLog, inboundDlq, inboxDlq] = await Promise.all([
    read(topics.inbound),
    read(inbox),
    read(topics.events),
    read(topics.ledger),
    read(deadLetterTopic(topics.inbound)),
    read(deadLetterTopic(inbox)),
  ]);
  const committedEvents = new Set(eventsLog.committed.map((record) => `${record.partition}:${record.offset}`));
  const kafkajsPhantomEvents = (await readCommittedByKafkajs(brokers, topics.events)).filter(
    (record) => !committedEvents.has(`${record.partition}:${record.offset}`),
  ).length;
  const effect = (record: CollectedRecord, messageId: string): ObservedEffect => ({
    messageId,
    taskId: record.key,
    partition: record.partition,
    offset: record.offset,
  });

  const completed: ObservedEffect[] = [];
  const routed: ObservedEffect[] = [];
  const otherEvents: Record<string, number> = {};
  for (const record of eventsLog.committed) {
    const kind = `${record.headers.ce_type ?? '?'} from ${record.headers.ce_source ?? '?'}`;
    const into =
      kind === `baton.outcome.COMPLETED from ${agentId}`
        ? completed
        : kind === `baton.outcome.ROUTED from ${routerId}`
          ? routed
          : undefined;
    if (into === undefined) otherEvents[kind] = (otherEvents[kind] ?? 0) + 1;
    else into.push(effect(record, (await outcomeCodec.decode(record.value as Buffer)).message_id));
  }

  const seqOf = new Map(published.map((handoff) => [handoff.messageId, handoff.seq]));
  let seqMismatches = 0;
  const observed: ObservedEffect[] = [];
  for (const record of ledgerLog.committed) {
    const entry = parseLedgerEntry(record.value as Buffer);
    if (entry.effect !== 'observed') continue;
    if (seqOf.has(entry.message_id) && seqOf.get(entry.message_id) !== entry.args.seq) seqMismatches += 1;
    observed.push(effect(record, entry.message_id));
  }

  return {
    audits: {
      completed: auditExactlyOnce(published, completed),
      ledger: auditExactlyOnce(published, observed),
      routed: auditExactlyOnce(published, routed),
      inbox: auditExactlyOnce(
        published,
        inboxLog.committed.map((record) => effect(record, record.headers.ce_id ?? '')),
      ),
    },
    inboundRecords: inbound.committed.length,
    deadLetters: inboundDlq.committed.length + inboxDlq.committed.length,
    otherEvents,
    seqMismatches,
    abortedRecords: {
      inbox: inboxLog.written.length - inboxLog.committed.length,
      ledger: ledgerLog.written.length - ledgerLog.committed.length,
    },
    kafkajsPhantomEvents,
  };
}
