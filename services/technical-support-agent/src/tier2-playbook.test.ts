import { describe, expect, it } from 'vitest';
import { tier2Fix } from './tier2-playbook.js';

describe('tier2Fix', () => {
  it.each([
    ['Very slow Wi-Fi in the evening.', 'WIFI_CONGESTION'],
    ['Video keeps buffering.', 'WIFI_CONGESTION'],
    ['DNS lookups fail.', 'DNS_SETTINGS'],
    ['Some websites do not open.', 'DNS_SETTINGS'],
    ['No internet at all.', 'POWER_CYCLE'],
    [undefined, 'POWER_CYCLE'],
  ])('%s -> %s', (symptoms, id) => {
    expect(tier2Fix(symptoms).id).toBe(id);
  });

  it('prefers the earlier fix when several match', () => {
    expect(tier2Fix('Slow, and some websites do not open.')).toEqual({
      id: 'WIFI_CONGESTION',
      reply:
        'Your line tests at full speed, so the slowness comes from a crowded Wi-Fi channel. Connect your devices to your router’s 5 GHz network and keep the router in the open, away from thick walls.',
    });
  });

  it('falls back to the power cycle', () => {
    expect(tier2Fix('The line is dead.')).toEqual({
      id: 'POWER_CYCLE',
      reply:
        'Your line tests clean from our side. Unplug your modem and your router for 30 seconds, plug in the modem first and the router two minutes later, and your connection will come back.',
    });
  });
});
