import type { AuditEntry, DeadLetterDetail, DeadLetterSummary } from '@baton/gateway-api';
import { booleanOption, integerOption, stringOption } from '../args.js';
import type { Command, CommandContext } from '../context.js';
import { usageError } from '../errors.js';
import { formatFields, formatTable, type Column } from '../format.js';
import { segment } from '../gateway-client.js';
import { filterFromOptions, isEmptyFilter } from './dlq-filter.js';
import { bulkReplay } from './dlq-replay.js';

export const DEAD_LETTER_COLUMNS: readonly Column<DeadLetterSummary>[] = [
  { header: 'ID', value: (letter) => letter.id },
  { header: 'DEAD-LETTERED', value: (letter) => letter.timestamp },
  { header: 'TASK', value: (letter) => letter.task_id },
  { header: 'TYPE', value: (letter) => letter.handoff_type },
  { header: 'ERROR', value: (letter) => letter.error_code },
  { header: 'ATTEMPTS', value: (letter) => letter.attempts, align: 'right' },
  { header: 'REPLAYS', value: (letter) => letter.replay_count, align: 'right' },
  { header: 'MESSAGE', value: (letter) => truncate(letter.error_message, 60) },
];

const REPLAY_COLUMNS: readonly Column<AuditEntry>[] = [
  { header: 'TIME', value: (entry) => entry.time },
  { header: 'ACTOR', value: (entry) => entry.actor },
  { header: 'ACTION', value: (entry) => entry.action },
  { header: 'TARGET', value: (entry) => entry.target_topic },
  { header: 'MESSAGE_ID', value: (entry) => entry.message_id },
  { header: 'REASON', value: (entry) => entry.reason },
];

function truncate(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** `baton dlq list`. */
export const dlqList: Command = async (context) => {
  const answer = await context
    .gateway()
    .get<{ topics: { topic: string; source_topic: string; count: number }[] }>('/v1/dlq');
  if (context.json) return context.printJson(answer);
  if (answer.topics.length === 0) return context.print('no dead-letter topics');
  context.print(
    formatTable(
      [
        { header: 'TOPIC', value: (row) => row.topic },
        { header: 'SOURCE', value: (row) => row.source_topic },
        { header: 'COUNT', value: (row) => row.count, align: 'right' },
      ],
      answer.topics,
    ),
  );
};

/** `baton dlq messages TOPIC [filters] [--limit N] [--cursor C]`. */
export const dlqMessages: Command = async (context) => {
  const [topic = ''] = context.operands;
  const filter = filterFromOptions(context.options);
  const limit = integerOption(context.options, 'limit', 1, 500);
  const cursor = stringOption(context.options, 'cursor');
  const answer = await context
    .gateway()
    .get<{ messages: DeadLetterSummary[]; total: number; next_cursor?: string }>(`/v1/dlq/${segment(topic)}/messages`, {
      ...filter,
      limit,
      cursor,
    });
  if (context.json) return context.printJson(answer);
  if (answer.messages.length === 0) return context.print(`no dead letters in ${topic} match (total ${answer.total})`);
  context.print([
    ...formatTable(DEAD_LETTER_COLUMNS, answer.messages),
    `${answer.messages.length} of ${answer.total}` +
      (answer.next_cursor === undefined ? '' : `; next page: --cursor ${answer.next_cursor}`),
  ]);
};

/** What `dlq show` says of the raw value: its size, or why the gateway withheld it. */
function valueLine(letter: DeadLetterDetail): string {
  if (letter.value_redacted !== undefined) {
    return `withheld (${letter.value_redacted}): it may hold personal data in clear; the personal-data role sees it`;
  }
  if (letter.value_base64 === null) return 'none';
  return `${Buffer.from(letter.value_base64, 'base64').length} bytes (base64 in --json)`;
}

/** `baton dlq show TOPIC ID`. */
export const dlqShow: Command = async (context) => {
  const [topic = '', id = ''] = context.operands;
  const letter = await context.gateway().get<DeadLetterDetail>(`/v1/dlq/${segment(topic)}/messages/${segment(id)}`);
  if (context.json) return context.printJson(letter);
  const { error } = letter;
  const headerNames = Object.keys(letter.headers).sort();
  const headerWidth = Math.max(0, ...headerNames.map((name) => name.length));
  context.print([
    ...formatFields([
      ['id', letter.id],
      ['topic', `${letter.topic} (partition ${letter.partition}, offset ${letter.offset})`],
      ['dead-lettered', letter.timestamp],
      ['task_id', letter.task_id],
      ['message_id', letter.message_id],
      ['handoff_type', letter.handoff_type],
      ['error', `${error.code}: ${error.message}`],
      ['class', error.class],
      ['stage', error.stage],
      ['retriable', String(error.retriable)],
      ['attempts', String(error.attempts)],
      ['consumer group', error.consumer_group],
      ['instance', error.instance_id],
      ['source', `${error.source.topic} (partition ${error.source.partition}, offset ${error.source.offset})`],
      ['replays', String(letter.replay_count)],
      ['value', valueLine(letter)],
    ]),
    '',
    'headers:',
    ...headerNames.map((name) => `  ${name.padEnd(headerWidth)}  ${letter.headers[name]}`),
    '',
    letter.body_error ? `body: undecodable, ${letter.body_error.code}: ${letter.body_error.message}` : 'body:',
    ...(letter.body_error ? [] : JSON.stringify(letter.body, null, 2).split('\n')),
    ...(letter.replays.length > 0 ? ['', 'replays:', ...formatTable(REPLAY_COLUMNS, letter.replays)] : []),
  ]);
};

async function replayOne(context: CommandContext, topic: string, id: string, reason: string): Promise<void> {
  const result = await context
    .gateway()
    .post<Record<string, unknown>>(`/v1/dlq/${segment(topic)}/messages/${segment(id)}/replay`, {
      reason,
      ...(stringOption(context.options, 'target-topic')
        ? { target_topic: stringOption(context.options, 'target-topic') }
        : {}),
      ...(booleanOption(context.options, 'new-message-id') ? { new_message_id: true } : {}),
      ...(booleanOption(context.options, 'override-trust') ? { override_trust: true } : {}),
    });
  if (context.json) return context.printJson(result);
  context.print([
    `replayed ${topic} ${id}`,
    ...formatFields([
      ['target_topic', result.target_topic],
      ['message_id', result.message_id],
      ['partition', String(result.partition)],
      ['offset', result.offset],
      ['audit_id', result.audit_id],
    ]),
  ]);
}

/** `baton dlq replay TOPIC ID ...` (one) or `baton dlq replay TOPIC --all|filters ...` (bulk). */
export const dlqReplay: Command = async (context) => {
  const [topic = '', id] = context.operands;
  const reason = stringOption(context.options, 'reason');
  if (reason === undefined || reason.trim() === '')
    throw usageError('dlq replay needs --reason: why, for the audit trail');
  const filter = filterFromOptions(context.options);
  const all = booleanOption(context.options, 'all');
  const oneOnly = booleanOption(context.options, 'override-trust');
  const bulkOnly = ['rate', 'dry-run'].filter((name) => context.options[name] !== undefined);
  if (id !== undefined) {
    if (all || !isEmptyFilter(filter) || bulkOnly.length > 0) {
      throw usageError(`replaying one dead letter (ID ${id}) takes no --all, filters, --rate or --dry-run`);
    }
    return replayOne(context, topic, id, reason);
  }
  if (!all && isEmptyFilter(filter)) {
    throw usageError('dlq replay needs an ID, or --all or filters for a bulk replay');
  }
  if (oneOnly) throw usageError('--override-trust replays one dead letter (give its ID), never a bulk replay');
  if (all && !isEmptyFilter(filter)) throw usageError('--all replays every dead letter: give it no filters');
  return bulkReplay(context, { topic, reason, filter });
};
