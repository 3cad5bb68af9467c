import type { OutputRecord } from '@baton/kafka';
import { randomId, type JsonValue } from '@baton/protocol';

/** The model's tool call that caused a ledger entry. */
export interface ToolCallRecord {
  /**
   * `<step>.<index>`: the model call of the handling (from 0) and the call's place in its answer.
   * With the message_id it names the call across redeliveries: the idempotency key of the effect.
   */
  position: string;
  /** The provider's id of the call. */
  id: string;
  /** What the tool answered the model. */
  result: JsonValue;
}

/** A side effect an agent performed (execute_refund, execute_order), as recorded in the ledger topic. */
export interface LedgerEntry {
  entry_id: string;
  time: string;
  task_id: string;
  /** The handoff whose handling caused the effect: at most one entry per message and effect. */
  message_id: string;
  agent_id: string;
  effect: string;
  args: Record<string, unknown>;
  /** Present when a model agent's tool call performed the effect. */
  tool_call?: ToolCallRecord;
}

/**
 * The ledger entry as a record. It is written in the same transaction as the handled message's
 * offset, so an effect is in the ledger exactly once however often the message is delivered.
 */
export function ledgerRecord(topic: string, entry: Omit<LedgerEntry, 'entry_id' | 'time'>, now: Date): OutputRecord {
  const full: LedgerEntry = { entry_id: randomId(), time: now.toISOString(), ...entry };
  return {
    topic,
    key: entry.task_id,
    value: Buffer.from(JSON.stringify(full)),
    headers: { 'content-type': 'application/json', 'baton.ledger.effect': entry.effect },
  };
}

export function parseLedgerEntry(value: Buffer): LedgerEntry {
  return JSON.parse(value.toString()) as LedgerEntry;
}
