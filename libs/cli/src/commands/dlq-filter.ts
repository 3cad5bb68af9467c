import type { DeadLetterFilterParameters } from '@baton/gateway-api';
import { instantOption, listOption, stringOption, type OptionValue } from '../args.js';
import { usageError } from '../errors.js';

/** The filter the options give, checked: headers are name=value, dates parse. */
export function filterFromOptions(options: Record<string, OptionValue>): DeadLetterFilterParameters {
  const headers = listOption(options, 'header');
  for (const pair of headers) {
    if (pair.indexOf('=') <= 0) throw usageError(`--header must be name=value, not "${pair}"`);
  }
  const filter: DeadLetterFilterParameters = {
    error_code: stringOption(options, 'error-code'),
    task_id: stringOption(options, 'task-id'),
    handoff_type: stringOption(options, 'handoff-type'),
    header: headers.length > 0 ? headers : undefined,
    from: instantOption(options, 'from'),
    to: instantOption(options, 'to'),
  };
  return Object.fromEntries(
    Object.entries(filter).filter(([, value]) => value !== undefined),
  ) as DeadLetterFilterParameters;
}

export function isEmptyFilter(filter: DeadLetterFilterParameters): boolean {
  return Object.keys(filter).length === 0;
}
