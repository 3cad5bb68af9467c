import type {
  AttentionItem,
  DeadLetterStats,
  DeadLetterTopicSummary,
  MinuteOutcomes,
  OverviewAnswer,
} from '@baton/gateway-api';
import type { Command } from '../context.js';
import { formatTable, type Column } from '../format.js';
import { AGENT_COLUMNS } from './agents.js';

const ATTENTION_COLUMNS: readonly Column<AttentionItem>[] = [
  { header: 'KIND', value: (item) => item.kind },
  { header: 'SUBJECT', value: (item) => item.subject },
  { header: 'DETAIL', value: (item) => item.detail },
];

const CODE_COLUMNS: readonly Column<DeadLetterStats['by_error_code'][number]>[] = [
  { header: 'ERROR_CODE', value: (code) => code.error_code },
  { header: 'COUNT', value: (code) => code.count, align: 'right' },
];

const TOPIC_COLUMNS: readonly Column<DeadLetterTopicSummary>[] = [
  { header: 'DLQ_TOPIC', value: (topic) => topic.topic },
  { header: 'COUNT', value: (topic) => topic.count, align: 'right' },
];

/** The minutes of the window as a table: a column per outcome seen in it, in the order first seen. */
function outcomeLines(outcomes: OverviewAnswer['outcomes']): string[] {
  const kinds = [...new Set(outcomes.per_minute.flatMap((minute) => Object.keys(minute.outcomes)))];
  if (kinds.length === 0) return [`no handoff ended in the last ${outcomes.window_minutes} minutes`];
  const columns: Column<MinuteOutcomes>[] = [
    { header: 'MINUTE', value: (minute) => minute.minute.slice(11, 16) },
    ...kinds.map((kind): Column<MinuteOutcomes> => ({
      header: kind,
      value: (minute) => minute.outcomes[kind] ?? 0,
      align: 'right',
    })),
  ];
  return formatTable(columns, outcomes.per_minute);
}

function topicsHolding(count: number): string {
  return `${count} topic${count === 1 ? ' holds' : 's hold'} some`;
}

/** `baton overview`: what needs attention first, then the agents, the dead letters and the last minutes' outcomes. */
export const overview: Command = async (context) => {
  const answer = await context.gateway().get<OverviewAnswer>('/v1/overview');
  if (context.json) return context.printJson(answer);
  const { attention, dead_letters: letters } = answer;
  context.print([
    ...(attention.length === 0
      ? ['attention: none']
      : ['attention:', ...formatTable(ATTENTION_COLUMNS, attention).map((line) => `  ${line}`)]),
    '',
    ...formatTable(AGENT_COLUMNS, answer.agents),
    '',
    `dead letters: ${letters.total} (${topicsHolding(letters.by_topic.length)}, ${letters.empty_topics} empty)`,
    ...(letters.total === 0
      ? []
      : [...formatTable(CODE_COLUMNS, letters.by_error_code), '', ...formatTable(TOPIC_COLUMNS, letters.by_topic)]),
    '',
    `outcomes per minute, last ${answer.outcomes.window_minutes} minutes (UTC):`,
    ...outcomeLines(answer.outcomes),
  ]);
};
