import type { AcceptedHandoff } from '@baton/gateway-api';
import type { Command } from '../context.js';
import { formatFields } from '../format.js';
import { buildFromJson, readHandoffInput } from './handoff-input.js';

/** `baton publish [FILE|-]`: validate locally, then POST /v1/handoffs. */
export const publish: Command = async (context) => {
  const [name, text] = await readHandoffInput(context.operands[0], context, 'publish');
  const message = buildFromJson(text, name);
  const accepted = await context.gateway().post<AcceptedHandoff>('/v1/handoffs', message);
  if (context.json) return context.printJson(accepted);
  context.print(
    formatFields([
      ['message_id', accepted.message_id],
      ['task_id', accepted.task_id],
      ['topic', accepted.topic],
      ['partition', String(accepted.partition)],
      ['offset', accepted.offset],
    ]),
  );
};
