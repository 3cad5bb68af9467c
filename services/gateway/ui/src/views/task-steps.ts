import {
  receiverStateText,
  type HandoffAttemptAnswer,
  type NegotiationAnswer,
  type TimelineEvent,
} from '@baton/gateway-api';
import { badge, h, timeElement, type Child, type Tone } from '../dom.js';
import { messageTone } from './step-tones.js';

/**
 * One timeline row, whatever the step's kind: who wrote it, what happened, between whom, its gist.
 * A lifecycle message the state machine refused is shown, marked, with why.
 */
export function stepRow(event: TimelineEvent, index: number): HTMLTableRowElement {
  let agent: string;
  let step: Child;
  let handoffType: Child = '—';
  let route = '—';
  let target = '—';
  let detail: Child;
  if (event.kind === 'lifecycle') {
    agent = event.sender;
    step = [badge(event.message_type, messageTone(event)), event.refused ? [' ', badge('refused', 'bad')] : null];
    route = `${event.sender} → ${event.receiver}`;
    detail = [
      event.detail ?? (event.refused ? null : '—'),
      event.refused ? h('div', { className: 'refusal small', text: `refused: ${event.refused.message}` }) : null,
    ];
  } else if (event.kind === 'staged') {
    agent = event.sender;
    step = badge('staged');
    detail = event.detail;
  } else {
    agent = event.agent_id;
    step = badge(event.outcome);
    handoffType = [
      event.handoff_type,
      event.issue_category ? h('div', { className: 'subtle small', text: event.issue_category }) : null,
    ];
    if (event.sender || event.receiver) route = `${event.sender ?? '?'} → ${event.receiver ?? '?'}`;
    target = event.target ?? '—';
    detail = [
      event.error_code ? badge(event.error_code, 'bad') : null,
      event.error_code && event.detail ? ' ' : null,
      event.detail ?? (event.error_code ? null : '—'),
    ];
  }
  const refused = event.kind === 'lifecycle' && event.refused !== undefined;
  return h(
    'tr',
    {
      className: refused ? 'refused' : undefined,
      attrs: {
        'data-testid': 'timeline-row',
        'data-kind': event.kind,
        'data-outcome': event.kind === 'outcome' ? event.outcome : undefined,
        'data-message-type': event.kind === 'lifecycle' ? event.message_type : undefined,
        'data-agent': agent,
        'data-refused': refused,
      },
    },
    h('td', { className: 'num', text: index + 1 }),
    h('td', { attrs: { 'data-col': 'time' } }, timeElement(event.time)),
    h('td', { className: 'mono', text: agent, attrs: { 'data-col': 'agent' } }),
    h('td', { attrs: { 'data-col': 'step' } }, step),
    h('td', { attrs: { 'data-col': 'handoff_type' } }, handoffType),
    h('td', { className: 'mono', text: route, attrs: { 'data-col': 'route' } }),
    h('td', { className: 'mono', text: target, attrs: { 'data-col': 'target' } }),
    h('td', { className: 'wrap', attrs: { 'data-col': 'detail' } }, detail),
  );
}

const NEGOTIATION_TONES: Record<string, Tone> = { COMPLETED: 'good', FAILED: 'bad', EXPIRED: 'bad', OPEN: 'warn' };

/** Why an attempt ended: completed, rejected (and whom the receiver suggested), or its failure. */
function attemptEnd(attempt: HandoffAttemptAnswer): Child {
  if (attempt.completed_at) return [badge('completed', 'good'), ' ', timeElement(attempt.completed_at)];
  if (attempt.rejection) {
    const { reason, suggestions } = attempt.rejection;
    return [
      badge('rejected', 'warn'),
      ` ${reason}`,
      suggestions.length > 0 ? `; suggests ${suggestions.join(', ')}` : '',
    ];
  }
  if (attempt.failure) return [badge(attempt.failure.code, 'bad'), ` ${attempt.failure.message}`];
  return '—';
}

/** A negotiated handoff: its outcome, the sender's state and each receiver asked. */
export function negotiationCard(negotiation: NegotiationAnswer): HTMLElement {
  const head = ['Receiver', 'Via', 'Receiver state', 'Requested', 'Ended'].map((text) =>
    h('th', { text, attrs: { scope: 'col' } }),
  );
  const rows = negotiation.attempts.map((attempt) =>
    h(
      'tr',
      { attrs: { 'data-testid': 'attempt-row', 'data-receiver': attempt.receiver } },
      h('td', { className: 'mono', text: attempt.receiver, attrs: { 'data-col': 'receiver' } }),
      h('td', { text: attempt.via, attrs: { 'data-col': 'via' } }),
      h('td', {
        className: 'mono',
        text: receiverStateText(attempt.receiver_state),
        attrs: { 'data-col': 'receiver_state' },
      }),
      h('td', { attrs: { 'data-col': 'requested_at' } }, timeElement(attempt.requested_at)),
      h('td', { className: 'wrap', attrs: { 'data-col': 'ended' } }, attemptEnd(attempt)),
    ),
  );
  return h(
    'article',
    {
      className: 'negotiation',
      attrs: {
        'data-testid': 'negotiation',
        'data-negotiation-id': negotiation.negotiation_id,
        'data-outcome': negotiation.outcome,
      },
    },
    h(
      'div',
      { className: 'negotiation-head' },
      badge(negotiation.outcome, NEGOTIATION_TONES[negotiation.outcome] ?? 'info'),
      ' sender ',
      h('code', { text: negotiation.sender_id }),
      ' in ',
      h('span', { className: 'mono', text: negotiation.sender_state, attrs: { 'data-field': 'sender_state' } }),
      `, wants ${negotiation.terms.desired_agent_type}`,
      negotiation.ended_at ? [', ended ', timeElement(negotiation.ended_at)] : null,
      negotiation.reason
        ? h('div', { className: 'wrap', text: negotiation.reason, attrs: { 'data-field': 'reason' } })
        : null,
    ),
    h(
      'div',
      { className: 'table-wrap' },
      h('table', { className: 'data attempts' }, h('thead', {}, h('tr', {}, head)), h('tbody', {}, rows)),
    ),
  );
}
