/**
 * A service for run-service.test.ts: its `held` component holds the process open, and its
 * `stuck` component (closed first) never finishes closing.
 */
import { createLogger } from '../logger.js';
import { component } from './component.js';
import { runService } from './run-service.js';
import { Service } from './service.js';

const logger = createLogger('stuck-service');
let holding: NodeJS.Timeout | undefined;

await runService(
  () =>
    new Service({
      name: 'stuck-service',
      logger,
      components: [
        component('held', {
          start: async () => (holding = setInterval(() => undefined, 60_000)),
          close: async () => clearInterval(holding),
        }),
        component('stuck', { close: () => new Promise(() => undefined) }),
      ],
    }),
  logger,
);
