import { createLogger, runService } from '@baton/runtime';
import { buildGateway } from './gateway.js';
import { loadGatewayConfig } from './gateway-config.js';

await runService(async () => (await buildGateway(loadGatewayConfig())).service, createLogger('gateway'));
