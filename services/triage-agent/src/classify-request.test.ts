import { describe, expect, it } from 'vitest';
import { classifyRequest } from './classify-request.js';

describe('classifyRequest', () => {
  it.each([
    ['I want to buy the mesh kit', 'SALES', 'buy'],
    ['What is the price of the anvil?', 'SALES', 'price'],
    ['Can I place an order?', 'SALES', 'order'],
    ['我想购买路由器', 'SALES', '购买'],
    ['I want a refund', 'REFUND', 'refund'],
    ['Can I return these shoes?', 'REFUND', 'return'],
    ['The kettle arrived broken', 'REPAIR', 'broken'],
    ['Please repair my phone', 'REPAIR', 'repair'],
    ['My internet keeps dropping every hour', 'NETWORK_CONNECTIVITY', 'internet'],
    ['The WiFi is down', 'NETWORK_CONNECTIVITY', 'wifi'],
    ['I want to talk to your manager', 'HUMAN', 'manager'],
    ['我要退款', 'REFUND', '退款'],
  ])('reads "%s" as %s', (text, category, keyword) => {
    expect(classifyRequest([text])).toEqual({ category, keyword });
  });

  it('matches inflected words but not words that merely contain a keyword', () => {
    expect(classifyRequest(['I was never refunded'])).toEqual({ category: 'REFUND', keyword: 'refund' });
    expect(classifyRequest(['Buying two please'])).toEqual({ category: 'SALES', keyword: 'buy' });
    expect(classifyRequest(['That is borderline'])).toBeUndefined();
    expect(classifyRequest(['Tell me about the returnable deposit scheme'])).toBeUndefined();
  });

  it('settles mixed requests by precedence: human, refund, network, repair, sales', () => {
    expect(classifyRequest(['The shoes I ordered are broken'])).toEqual({ category: 'REPAIR', keyword: 'broken' });
    expect(classifyRequest(['My wifi extender is broken'])).toEqual({
      category: 'NETWORK_CONNECTIVITY',
      keyword: 'wifi',
    });
    expect(classifyRequest(['Refund my broken wifi extender'])).toEqual({ category: 'REFUND', keyword: 'refund' });
    expect(classifyRequest(['No refund, get me a human'])).toEqual({ category: 'HUMAN', keyword: 'human' });
  });

  it('takes the whole conversation together, as in the refund conversation where the item comes after the ask', () => {
    expect(classifyRequest(['A pair of shoes I bought', 'I want a refund'])).toEqual({
      category: 'REFUND',
      keyword: 'refund',
    });
    expect(classifyRequest(['A pair of shoes I bought'])).toBeUndefined();
  });

  it('ignores case and spacing', () => {
    expect(classifyRequest(['HOW   MUCH is it?'])).toEqual({ category: 'SALES', keyword: 'how much' });
  });

  it('finds nothing in small talk', () => {
    expect(classifyRequest(['Hello there', ''])).toBeUndefined();
    expect(classifyRequest([])).toBeUndefined();
  });
});
