import { BatonError } from '@baton/errors';
import type { DeadLetterStats, DeadLetterTopicSummary } from '@baton/gateway-api';
import { DLQ_HEADERS, readDeadLetterFacts, type ConsumedRecord } from '@baton/kafka';
import { matchesFilter, type DeadLetterFilter } from './dead-letter-filter.js';

/** A dead letter's id within its topic: `<partition>-<offset>`. */
export function deadLetterId(record: Pick<ConsumedRecord, 'partition' | 'offset'>): string {
  return `${record.partition}-${record.offset}`;
}

export interface DeadLetterPage {
  records: ConsumedRecord[];
  total: number;
  next_cursor?: string;
}

interface TopicLetters {
  /** In the order read; `sequence` numbers them for stable paging while new ones arrive. */
  letters: { sequence: number; record: ConsumedRecord }[];
  byId: Map<string, ConsumedRecord>;
  count: number;
  /** Every record read, by its error code, those no longer kept in memory included. */
  byCode: Map<string, number>;
  /** The highest offset added, per partition: a record at or below it was read before. */
  readUpTo: Map<number, bigint>;
}

type Entry = { sequence: number; record: ConsumedRecord };

/**
 * The dead letters read from every DLQ topic, newest first, with filters and cursor paging. Each
 * topic keeps its newest `limitPerTopic` records in memory; its count covers them all. A record
 * read again (a new reader reads its topics from the beginning) is skipped, also once it is no
 * longer in memory: a partition is read in offset order, so anything up to the last offset added
 * has been seen.
 */
export class DeadLetterStore {
  private readonly topics = new Map<string, TopicLetters>();
  private sequence = 0;
  private readonly readListeners: (() => void)[] = [];

  constructor(private readonly limitPerTopic: number) {}

  /** Calls `listener` whenever someone reads the dead letters (a page, one, the summaries, the stats). */
  onRead(listener: () => void): void {
    this.readListeners.push(listener);
  }

  private noteRead(): void {
    for (const listener of this.readListeners) listener();
  }

  add(record: ConsumedRecord): void {
    let topic = this.topics.get(record.topic);
    if (!topic) this.topics.set(record.topic, (topic = emptyTopic()));
    const offset = BigInt(record.offset);
    const readUpTo = topic.readUpTo.get(record.partition);
    if (readUpTo !== undefined && offset <= readUpTo) return;
    topic.readUpTo.set(record.partition, offset);
    const id = deadLetterId(record);
    topic.letters.push({ sequence: ++this.sequence, record });
    topic.byId.set(id, record);
    topic.count += 1;
    const code = record.headers[DLQ_HEADERS.code] ?? 'UNKNOWN';
    topic.byCode.set(code, (topic.byCode.get(code) ?? 0) + 1);
    if (topic.letters.length > this.limitPerTopic) {
      const dropped = topic.letters.shift();
      if (dropped) topic.byId.delete(deadLetterId(dropped.record));
    }
  }

  /** Makes a topic known before its first record, so an empty DLQ is listed with count 0. */
  know(topic: string): void {
    if (!this.topics.has(topic)) this.topics.set(topic, emptyTopic());
  }

  hasTopic(topic: string): boolean {
    return this.topics.has(topic);
  }

  summaries(): DeadLetterTopicSummary[] {
    this.noteRead();
    return this.topicSummaries();
  }

  private topicSummaries(): DeadLetterTopicSummary[] {
    return [...this.topics.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([topic, letters]) => ({ topic, source_topic: topic.replace(/\.dlq$/, ''), count: letters.count }));
  }

  private topic(topic: string): TopicLetters {
    const letters = this.topics.get(topic);
    if (!letters) throw new BatonError('DEAD_LETTER_NOT_FOUND', `no dead-letter topic "${topic}"`, { path: '/topic' });
    return letters;
  }

  get(topic: string, id: string): ConsumedRecord {
    this.noteRead();
    const record = this.topic(topic).byId.get(id);
    if (!record) throw new BatonError('DEAD_LETTER_NOT_FOUND', `no dead letter ${id} in ${topic}`, { path: '/id' });
    return record;
  }

  /** Newest first. */
  matching(topic: string, filter: DeadLetterFilter): ConsumedRecord[] {
    return this.matchingEntries(topic, filter).map(({ record }) => record);
  }

  page(topic: string, filter: DeadLetterFilter, limit: number, cursor?: string): DeadLetterPage {
    this.noteRead();
    return pageOf(this.matchingEntries(topic, filter), limit, cursor);
  }

  /**
   * The dead letters of every topic (or of `topics`, when given) in one list, newest read first,
   * paged like a topic's: the cursor is the same sequence, which every topic shares.
   */
  pageAll(filter: DeadLetterFilter, limit: number, cursor?: string, topics?: ReadonlySet<string>): DeadLetterPage {
    this.noteRead();
    const matching = [...this.topics.keys()]
      .filter((topic) => topics === undefined || topics.has(topic))
      .flatMap((topic) => this.matchingEntries(topic, filter))
      .sort((a, b) => b.sequence - a.sequence);
    return pageOf(matching, limit, cursor);
  }

  /**
   * Totals across the topics: every dead letter read, by error code (most first) and by topic, the
   * non-empty topics only, most first; the empty ones are only counted.
   */
  stats(): DeadLetterStats {
    this.noteRead();
    const byCode = new Map<string, number>();
    for (const topic of this.topics.values()) {
      for (const [code, count] of topic.byCode) byCode.set(code, (byCode.get(code) ?? 0) + count);
    }
    const summaries = this.topicSummaries();
    const nonEmpty = summaries.filter((summary) => summary.count > 0);
    return {
      total: nonEmpty.reduce((sum, summary) => sum + summary.count, 0),
      by_error_code: [...byCode]
        .map(([error_code, count]) => ({ error_code, count }))
        .sort((a, b) => b.count - a.count || a.error_code.localeCompare(b.error_code)),
      by_topic: nonEmpty.sort((a, b) => b.count - a.count || a.topic.localeCompare(b.topic)),
      empty_topics: summaries.length - nonEmpty.length,
    };
  }

  private matchingEntries(topic: string, filter: DeadLetterFilter): Entry[] {
    return this.topic(topic)
      .letters.filter(
        ({ record }) => readDeadLetterFacts(record.headers) !== undefined && matchesFilter(record, filter),
      )
      .reverse();
  }
}

function pageOf(matching: Entry[], limit: number, cursor?: string): DeadLetterPage {
  const before = cursor === undefined ? Number.POSITIVE_INFINITY : Number(cursor);
  const rest = matching.filter(({ sequence }) => sequence < before);
  const page = rest.slice(0, limit);
  const last = page.at(-1);
  return {
    records: page.map(({ record }) => record),
    total: matching.length,
    ...(rest.length > limit && last ? { next_cursor: String(last.sequence) } : {}),
  };
}

function emptyTopic(): TopicLetters {
  return { letters: [], byId: new Map(), count: 0, byCode: new Map(), readUpTo: new Map() };
}
