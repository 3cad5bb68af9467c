import { createLogger, runUntilSignalled } from '@baton/runtime';
import { Gateway } from './gateway.js';
import { loadGatewayConfig } from './gateway-config.js';

await runUntilSignalled(async () => Gateway.start(loadGatewayConfig()), createLogger('gateway'));
