import type { UserReply } from '@baton/gateway-api';
import type { ConsumedRecord } from '@baton/kafka';
import type { Handoff, Logger } from '@baton/runtime';
import { RecencyMap } from '@baton/protocol';

/** What the replies reader needs of the handoff codec: a record value to a handoff. */
export interface HandoffDecoder {
  decode(bytes: Buffer): Promise<Handoff>;
}

/**
 * The agents' replies to the user by task, in the order the user-replies topic holds them (one
 * partition per task, so the order is the same on every read). Bounded like the task book: past
 * `maxTasks` the task replied to least recently goes.
 */
export class TaskReplies {
  private readonly replies = new RecencyMap<string, UserReply[]>();

  constructor(private readonly maxTasks: number = Number.POSITIVE_INFINITY) {}

  /** False when the reply was there already (a redelivery). */
  add(taskId: string, reply: UserReply): boolean {
    const replies = this.replies.get(taskId) ?? [];
    if (replies.some((known) => known.message_id === reply.message_id)) return false;
    replies.push(reply);
    this.replies.set(taskId, replies);
    if (this.replies.size > this.maxTasks) this.replies.shift();
    return true;
  }

  of(taskId: string): readonly UserReply[] {
    return this.replies.get(taskId) ?? [];
  }
}

/**
 * The user-replies reader's record handler: each NOTIFICATION an agent sent the user is kept for
 * its task, and `added` told of it. A record that does not decode is logged and skipped.
 */
export function repliesFolder(
  decoder: HandoffDecoder,
  replies: TaskReplies,
  logger: Logger,
  added: (taskId: string) => void,
): (record: Pick<ConsumedRecord, 'key' | 'offset' | 'value'>) => Promise<void> {
  return async (record) => {
    if (record.value === null) return;
    let handoff: Handoff;
    try {
      handoff = await decoder.decode(record.value);
    } catch (error) {
      logger.warn(
        { event: 'timeline.undecodable_reply', task_id: record.key, offset: record.offset, err: error },
        'reply skipped',
      );
      return;
    }
    const { metadata, payload } = handoff;
    if (payload.handoff_type !== 'NOTIFICATION') return;
    const reply: UserReply = {
      kind: 'reply',
      message_id: metadata.message_id,
      time: metadata.timestamp,
      agent_id: metadata.sender_id,
      message: payload.data.message,
    };
    if (replies.add(metadata.task_id, reply)) added(metadata.task_id);
  };
}
