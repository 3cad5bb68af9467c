import type { NextHandoff } from '@baton/agent-sdk';
import type { Immutable, TaskTransferData, UserInteraction } from '@baton/protocol';
import { CATALOGUE, findProduct } from './catalogue.js';

export const TRIAGE_AGENT = 'triage_agent';

export interface OrderFacts {
  data: Immutable<TaskTransferData>;
  history: Immutable<UserInteraction[]> | undefined;
}

export type OrderDecision =
  | { kind: 'order'; order: { product: string; price: number }; reply: string; summary: string }
  | { kind: 'reply'; reply: string; summary: string }
  | { kind: 'hand-back'; handoff: NextHandoff<'TASK_TRANSFER'> };

const USER_SENDERS = new Set(['user', 'customer']);

export const CATALOGUE_REPLY = `We sell ${CATALOGUE.map(({ product, priceUsd }) => `${product} ($${priceUsd})`).join(', ')}. Which one would you like?`;

/**
 * The sales agent without the sales talk: a request that names a catalogue product (in
 * attributes.product, the summary, or what the customer said, in that order) is ordered at the
 * catalogue's price; the request to buy stands for a chat agent's "Confirm order? y/n". A request that
 * names no product gets the catalogue. A task that is not about sales goes back to triage (a
 * transfer_back_to_triage).
 */
export function takeOrder({ data, history }: OrderFacts): OrderDecision {
  if (data.issue_category !== 'SALES') {
    return {
      kind: 'hand-back',
      handoff: {
        to: TRIAGE_AGENT,
        handoff_type: 'TASK_TRANSFER',
        data: {
          ...(structuredClone(data) as TaskTransferData),
          transfer_reason: `${data.issue_category} is outside sales' purview.`,
        },
        action: { action_type: 'TRANSFER_BACK_TO_TRIAGE', details: `Not a sales matter: ${data.issue_category}.` },
      },
    };
  }
  const product = data.attributes?.product;
  const said = (history ?? []).filter((entry) => USER_SENDERS.has(entry.sender.toLowerCase())).map((e) => e.content);
  const item = findProduct([...(typeof product === 'string' ? [product] : []), data.task_summary, ...said]);
  if (item === undefined) {
    return { kind: 'reply', reply: CATALOGUE_REPLY, summary: 'No catalogue product named; offered the catalogue.' };
  }
  return {
    kind: 'order',
    order: { product: item.product, price: item.priceUsd },
    reply: `Order placed: ${item.product} for $${item.priceUsd}. Thank you for shopping with ACME!`,
    summary: `Ordered ${item.product} at $${item.priceUsd}.`,
  };
}
