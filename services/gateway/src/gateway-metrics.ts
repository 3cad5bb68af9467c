import { Counter, METRIC_NAMES, type Registry } from '@baton/runtime';

export interface GatewayMetrics {
  request(route: string, method: string, status: number): void;
  replay(outcome: 'replayed' | 'refused' | 'failed'): void;
}

/** The gateway's own series, beside the default ones every service has. */
export function gatewayMetrics(registry: Registry): GatewayMetrics {
  const requests = new Counter({
    name: METRIC_NAMES.httpRequests,
    help: 'Gateway API requests, by route, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const replays = new Counter({
    name: METRIC_NAMES.replays,
    help: 'Dead letters replayed by operators, by outcome (replayed, refused by the trust gate, failed)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return {
    request: (route, method, status) => requests.inc({ route, method, status: String(status) }),
    replay: (outcome) => replays.inc({ outcome }),
  };
}
