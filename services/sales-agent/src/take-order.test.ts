import { describe, expect, it } from 'vitest';
import type { TaskTransferData } from '@baton/protocol';
import { CATALOGUE_REPLY, takeOrder } from './take-order.js';

function sales(task_summary: string, extra: Partial<TaskTransferData> = {}): TaskTransferData {
  return { issue_category: 'SALES', task_summary, ...extra };
}

describe('takeOrder', () => {
  it('orders the product named in attributes at the catalogue price, not the customer’s budget', () => {
    const data = sales('Customer wants to buy a kit.', {
      attributes: { product: 'RouterX-Pro mesh kit', budget: { value: 199, currency: 'USD' } },
    });
    expect(takeOrder({ data, history: undefined })).toEqual({
      kind: 'order',
      order: { product: 'RouterX-Pro mesh kit', price: 299 },
      reply: 'Order placed: RouterX-Pro mesh kit for $299. Thank you for shopping with ACME!',
      summary: 'Ordered RouterX-Pro mesh kit at $299.',
    });
  });

  it('finds the product in the summary, then in what the customer said', () => {
    expect(takeOrder({ data: sales('I want to buy an anvil'), history: [] })).toMatchObject({
      order: { product: 'ACME Anvil', price: 80 },
    });
    const history = [
      { type: 'CHAT_MESSAGE', sender: 'Agent', content: 'Try our magnet!', timestamp: '2026-11-21T09:00:00.000Z' },
      { type: 'CHAT_MESSAGE', sender: 'User', content: 'Rocket skates, please', timestamp: '2026-11-21T09:00:01.000Z' },
    ];
    expect(takeOrder({ data: sales('I want to buy something'), history })).toMatchObject({
      order: { product: 'ACME Rocket Skates', price: 1200 },
    });
  });

  it('offers the catalogue when no product is named', () => {
    expect(takeOrder({ data: sales('How much are your things?'), history: [] })).toEqual({
      kind: 'reply',
      reply: CATALOGUE_REPLY,
      summary: 'No catalogue product named; offered the catalogue.',
    });
    expect(CATALOGUE_REPLY).toBe(
      'We sell RouterX-Pro mesh kit ($299), ACME Rocket Skates ($1200), ACME Giant Magnet ($350), ACME Anvil ($80), ACME Bird Seed ($15). Which one would you like?',
    );
  });

  it('hands a task that is not about sales back to triage', () => {
    const data: TaskTransferData = { issue_category: 'REFUND', task_summary: 'Refund my anvil' };
    expect(takeOrder({ data, history: [] })).toEqual({
      kind: 'hand-back',
      handoff: {
        to: 'triage_agent',
        handoff_type: 'TASK_TRANSFER',
        data: { ...data, transfer_reason: "REFUND is outside sales' purview." },
        action: { action_type: 'TRANSFER_BACK_TO_TRIAGE', details: 'Not a sales matter: REFUND.' },
      },
    });
  });
});
