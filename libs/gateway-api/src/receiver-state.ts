/**
 * A receiver's state in a negotiation as the CLI and the console show it. `Active` is the state the
 * handoff state machine ends a completed handoff in on the receiver's side: said so, it no longer
 * reads as a negotiation still going on beside "completed".
 */
export function receiverStateText(state: string): string {
  return state === 'Active' ? 'Active: took the task' : state;
}
