import type { Immutable, TaskTransferData, UserInteraction } from '@baton/protocol';

// Words a customer uses for a connectivity fault. Bare "connect" and "router" are left out: "I
// can't connect to my account" is a login problem and "a new router" is a purchase.
const NETWORK_WORDS = /\b(?:networks?|internet|broadband|wi-?fi|connections?|connectivity|disconnect\w*)\b/i;

const CUSTOMER_SENDERS = new Set(['user', 'customer']);

/**
 * What the customer said in the conversation so far. Agents' lines are left out: an agent's
 * "restart your router" does not make a billing question a network fault.
 */
export function customerWords(history: Immutable<UserInteraction[]> | undefined): string[] {
  return (history ?? [])
    .filter((entry) => CUSTOMER_SENDERS.has(entry.sender.toLowerCase()))
    .map((entry) => entry.content.trim())
    .filter((content) => content.length > 0);
}

/**
 * Whether a transferred task is a network fault: its category says so, or the task summary or the
 * customer's own words talk about the network, the internet or the connection.
 */
export function isNetworkComplaint(
  data: Immutable<TaskTransferData>,
  history: Immutable<UserInteraction[]> | undefined,
): boolean {
  if (data.issue_category === 'NETWORK_CONNECTIVITY') return true;
  return [data.task_summary, ...customerWords(history)].some((text) => NETWORK_WORDS.test(text));
}
