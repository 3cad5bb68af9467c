/** The kafkajs relays the bench compares Baton with; bench/relay.ts runs one hop of each. */
export const RELAY_MODES = ['per-record', 'batch', 'transaction'] as const;

export type RelayMode = (typeof RELAY_MODES)[number];

/** How the report names each mode. */
export const RELAY_LABELS: Record<RelayMode, string> = {
  'per-record': 'kafkajs relay, send per record',
  batch: 'kafkajs relay, send per batch',
  transaction: 'kafkajs relay, transaction per batch',
};
