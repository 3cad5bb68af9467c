import type { BatonError } from '@baton/errors';
import type { ConsumedRecord } from '@baton/kafka';
import type { TaskEvent } from '@baton/protocol';
import { recordFacts, type Logger } from '@baton/runtime';
import type { ReadFacts } from '@baton/wire';
import type { TaskBook } from '@baton/task-tracking';

/** What the folder needs of EventsCodec (@baton/wire): one record value (and its seal's facts) to one TaskEvent. */
export interface EventsDecoder {
  decode(bytes: Buffer, facts?: ReadFacts): Promise<TaskEvent>;
}

/**
 * The events reader's record handler: every record of the events topic (outcome events, lifecycle
 * messages, staged contexts) folded into the book, and `folded` told of each new one. A record that
 * does not decode is logged and skipped: one bad record must not stop every timeline from being read.
 */
export function eventsFolder(
  decoder: EventsDecoder,
  tasks: TaskBook,
  logger: Logger,
  folded: (event: TaskEvent) => void = () => undefined,
): (record: ConsumedRecord) => Promise<void> {
  return async (record) => {
    if (record.value === null) return;
    let event: TaskEvent;
    try {
      event = await decoder.decode(record.value, recordFacts(record));
    } catch (error) {
      // An outcome event that fails its signature check (BATON_SIGNATURES=required) lands here too, with its code.
      const { code, path } = error as Partial<BatonError>;
      logger.warn(
        { event: 'timeline.undecodable_event', task_id: record.key, offset: record.offset, code, path, err: error },
        'event skipped',
      );
      return;
    }
    if (tasks.apply(event)) folded(event);
  };
}
