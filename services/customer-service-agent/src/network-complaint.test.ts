import { describe, expect, it } from 'vitest';
import type { UserInteraction } from '@baton/protocol';
import { customerWords, isNetworkComplaint } from './network-complaint.js';

const line = (sender: string, content: string): UserInteraction => ({
  type: 'CHAT_MESSAGE',
  sender,
  content,
  timestamp: '2023-10-27T10:21:00.000Z',
});

describe('customerWords', () => {
  it('keeps what the customer said, in order, and leaves out the agents’ lines', () => {
    const history = [
      line('User', 'My internet keeps dropping every hour.'),
      line('Agent', 'Please restart your router and modem.'),
      line('customer', '  Still dropping.  '),
      line('User', ' '),
    ];
    expect(customerWords(history)).toEqual(['My internet keeps dropping every hour.', 'Still dropping.']);
    expect(customerWords(undefined)).toEqual([]);
  });
});

describe('isNetworkComplaint', () => {
  const general = { issue_category: 'GENERAL_SUPPORT', task_summary: 'Customer asks for a copy of an invoice.' };

  it('takes the category’s word for it', () => {
    expect(isNetworkComplaint({ issue_category: 'NETWORK_CONNECTIVITY', task_summary: 'Help.' }, undefined)).toBe(true);
  });

  it.each([
    'My home internet is not working at all.',
    'The Wi-Fi is gone upstairs.',
    'Network is down since this morning.',
    'Connection keeps timing out.',
    'We get disconnected every hour.',
    'Broadband outage at my flat.',
  ])('finds a network fault in the summary: %s', (task_summary) => {
    expect(isNetworkComplaint({ issue_category: 'GENERAL_SUPPORT', task_summary }, undefined)).toBe(true);
  });

  it('finds a network fault in the customer’s own words', () => {
    expect(isNetworkComplaint(general, [line('User', 'Also my internet keeps dropping.')])).toBe(true);
  });

  it.each(['I can’t log in to my account.', 'I can’t connect to my account.', 'I want to buy a new router.'])(
    'sees no network fault in: %s',
    (task_summary) => {
      expect(isNetworkComplaint({ issue_category: 'GENERAL_SUPPORT', task_summary }, undefined)).toBe(false);
    },
  );

  it('ignores network words an agent used', () => {
    expect(isNetworkComplaint(general, [line('Agent', 'Is your internet working?')])).toBe(false);
  });
});
