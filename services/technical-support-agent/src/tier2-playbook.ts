/** A fix tier 2 gives the customer for a fault it can resolve without a specialist. */
export interface Tier2Fix {
  id: string;
  reply: string;
}

// Checked in order; the first whose symptoms match wins.
const PLAYBOOK: readonly (Tier2Fix & { symptoms: RegExp })[] = [
  {
    id: 'WIFI_CONGESTION',
    symptoms: /\b(?:slow|speed|lag\w*|buffer\w*)\b/i,
    reply:
      'Your line tests at full speed, so the slowness comes from a crowded Wi-Fi channel. Connect your devices to your router’s 5 GHz network and keep the router in the open, away from thick walls.',
  },
  {
    id: 'DNS_SETTINGS',
    symptoms: /\b(?:dns|websites?)\b/i,
    reply:
      'Your connection is up but some addresses do not resolve. Set your router’s DNS servers back to automatic and restart it.',
  },
];

// What clears most faults a line test does not explain.
const POWER_CYCLE: Tier2Fix = {
  id: 'POWER_CYCLE',
  reply:
    'Your line tests clean from our side. Unplug your modem and your router for 30 seconds, plug in the modem first and the router two minutes later, and your connection will come back.',
};

/** The first playbook fix whose symptoms match; the power cycle when none does. */
export function tier2Fix(symptoms: string | undefined): Tier2Fix {
  const match = PLAYBOOK.find((fix) => fix.symptoms.test(symptoms ?? ''));
  return match === undefined ? POWER_CYCLE : { id: match.id, reply: match.reply };
}
