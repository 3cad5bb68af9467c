import type { BatonError } from '@baton/errors';
import type { HandoffOutcome, Immutable } from '@baton/protocol';
import { Counter, type Registry } from 'prom-client';
import type { Logger } from './logger.js';
import { METRIC_NAMES } from './metrics.js';

/**
 * What a reader of the events topic does with an outcome event its fold refuses (a TaskBook's
 * holderCheck): counted by code and logged once, with the event's ids and never its detail, which
 * the refused writer chose.
 */
export function outcomeRefusals(
  logger: Logger,
  metrics: Registry,
): { onRefused(event: Immutable<HandoffOutcome>, error: BatonError): void } {
  const refused = new Counter({
    name: METRIC_NAMES.outcomesRefused,
    help: "Outcome events not folded: their agent neither holds the task nor was routed the event's message",
    labelNames: ['code'],
    registers: [metrics],
  });
  return {
    onRefused(event, error) {
      refused.inc({ code: error.code });
      logger.warn(
        {
          event: 'outcome.refused',
          code: error.code,
          path: error.path,
          task_id: event.task_id,
          event_id: event.event_id,
          agent_id: event.agent_id,
          outcome: event.outcome,
          reason: error.message,
        },
        'an outcome event was not folded',
      );
    },
  };
}
