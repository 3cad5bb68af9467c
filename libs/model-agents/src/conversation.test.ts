import { describe, expect, it } from 'vitest';
import type { UserInteraction } from '@baton/protocol';
import { chatEntry, conversationOf, modelMessages, toolCallEntry, toolResultEntry } from './conversation.js';

const AT = new Date('2026-11-24T10:00:00.000Z');

describe('conversationOf', () => {
  it("adds the customer's request when it is new to the conversation", () => {
    const history = [chatEntry('user', 'I want a refund', AT), chatEntry('triage_agent', 'Which item?', AT)];
    expect(conversationOf(history, 'A pair of shoes I bought', AT).map((entry) => entry.content)).toEqual([
      'I want a refund',
      'Which item?',
      'A pair of shoes I bought',
    ]);
  });

  it('does not repeat the request the conversation already ends with', () => {
    const history = [chatEntry('customer', 'I want a refund', AT)];
    expect(conversationOf(history, 'I want a refund', AT)).toEqual(history);
  });

  it("takes over after another agent's transfer without adding the request again", () => {
    const history = [
      chatEntry('user', 'I want a refund', AT),
      toolCallEntry(
        'triage_agent',
        { toolCallId: 'c1', toolName: 'transfer_to_issues_and_repairs_agent', input: {} },
        AT,
      ),
      toolResultEntry(
        'triage_agent',
        { toolCallId: 'c1', toolName: 'transfer_to_issues_and_repairs_agent', output: 'Transferred.', isError: false },
        AT,
      ),
    ];
    expect(conversationOf(history, 'I want a refund', AT)).toEqual(history);
  });

  it('leaves the incoming history as it was', () => {
    const history: UserInteraction[] = [chatEntry('user', 'Hello', AT)];
    conversationOf(history, 'I want to buy', AT).push(chatEntry('sales_agent', 'Hi', AT));
    expect(history).toHaveLength(1);
  });
});

describe('modelMessages', () => {
  it("reads the customer as the user, an agent's words and calls as one assistant turn, results as a tool message", () => {
    const conversation = [
      chatEntry('user', 'I want a refund', AT),
      chatEntry('issues_and_repairs_agent', 'Let me look.', AT),
      toolCallEntry(
        'issues_and_repairs_agent',
        { toolCallId: 'c1', toolName: 'look_up_item', input: { search_query: 'shoes' } },
        AT,
      ),
      toolCallEntry(
        'issues_and_repairs_agent',
        { toolCallId: 'c2', toolName: 'look_up_item', input: { search_query: 'boots' } },
        AT,
      ),
      toolResultEntry(
        'issues_and_repairs_agent',
        { toolCallId: 'c1', toolName: 'look_up_item', output: 'item_1', isError: false },
        AT,
      ),
      toolResultEntry(
        'issues_and_repairs_agent',
        { toolCallId: 'c2', toolName: 'look_up_item', output: 'none', isError: true },
        AT,
      ),
      { type: 'NOTE', sender: 'human_agent', content: 'Approved.', timestamp: AT.toISOString() },
    ];
    expect(modelMessages(conversation)).toEqual([
      { role: 'user', content: 'I want a refund' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'look_up_item', input: { search_query: 'shoes' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'look_up_item', input: { search_query: 'boots' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'look_up_item',
            output: { type: 'text', value: 'item_1' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'look_up_item',
            output: { type: 'error-text', value: 'none' },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Approved.' }] },
    ]);
  });

  it('reads tool call arguments that are not JSON as none', () => {
    const entry = { ...toolCallEntry('a', { toolCallId: 'c1', toolName: 't', input: {} }, AT), content: '{oops' };
    expect(modelMessages([entry])).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 't', input: {} }] },
    ]);
  });
});
