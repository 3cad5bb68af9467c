import { RecencyMap, type JsonValue } from '@baton/protocol';

interface Remembered {
  toolName: string;
  /** The call's arguments as JSON: a call at the same position with other arguments is another call. */
  input: string;
  result: JsonValue;
}

/**
 * The results of an instance's side-effecting tool calls, by message_id and call position, so a
 * handoff handled again (a retry after the model failed, a redelivery) gets the result of the
 * effect it already performed instead of performing it twice. Only the ledger entry is the
 * effect's durable record (committed with the message); this memory spares the tool's function a
 * second run inside one instance. Bounded: the oldest calls are forgotten first, long after their
 * handoffs were committed.
 */
export class ToolCallMemo {
  private readonly calls = new RecencyMap<string, Remembered>();

  constructor(private readonly capacity = 10_000) {}

  recall(messageId: string, position: string, toolName: string, input: string): JsonValue | undefined {
    const remembered = this.calls.get(`${messageId}:${position}`);
    if (remembered === undefined || remembered.toolName !== toolName || remembered.input !== input) return undefined;
    return remembered.result;
  }

  remember(messageId: string, position: string, call: Remembered): void {
    this.calls.set(`${messageId}:${position}`, call);
    if (this.calls.size > this.capacity) this.calls.shift();
  }

  get size(): number {
    return this.calls.size;
  }
}
