import type { AuditEntry } from '@baton/gateway-api';
import type { ConsumedRecord, OutputRecord } from '@baton/kafka';

/** An entry as a record: JSON, so any Kafka tool shows it; keyed by the DLQ topic. */
export function auditRecord(topic: string, entry: AuditEntry): OutputRecord {
  return {
    topic,
    key: entry.dlq_topic,
    value: Buffer.from(JSON.stringify(entry)),
    headers: { 'content-type': 'application/json', 'baton.audit.action': entry.action },
  };
}

/** The audit trail as read back from its topic, newest first, with the replays of each dead letter. */
export class AuditTrail {
  private readonly entries: AuditEntry[] = [];
  private readonly ids = new Set<string>();
  private readonly byDeadLetter = new Map<string, AuditEntry[]>();

  add(record: ConsumedRecord): void {
    if (record.value === null) return;
    let entry: AuditEntry;
    try {
      entry = JSON.parse(record.value.toString()) as AuditEntry;
    } catch {
      return;
    }
    if (typeof entry.audit_id !== 'string' || this.ids.has(entry.audit_id)) return;
    this.ids.add(entry.audit_id);
    this.entries.push(entry);
    if (entry.id !== undefined) {
      const key = `${entry.dlq_topic}/${entry.id}`;
      this.byDeadLetter.set(key, [...(this.byDeadLetter.get(key) ?? []), entry]);
    }
  }

  newest(limit: number): AuditEntry[] {
    return this.entries.slice(-limit).reverse();
  }

  replaysOf(dlqTopic: string, id: string): AuditEntry[] {
    return this.byDeadLetter.get(`${dlqTopic}/${id}`) ?? [];
  }
}
