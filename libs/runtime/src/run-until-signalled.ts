import type { Logger } from './logger.js';

/**
 * A service's main loop: start it, and on SIGTERM or SIGINT close it (drain, commit, disconnect)
 * and exit 0; exit 1 when start or close fails.
 */
export async function runUntilSignalled(
  start: () => Promise<{ close(): Promise<void> }>,
  logger: Logger,
): Promise<void> {
  let service: { close(): Promise<void> };
  try {
    service = await start();
  } catch (error) {
    logger.fatal({ event: 'service.start_failed', err: error }, 'could not start');
    process.exit(1);
  }
  const stop = async (signal: string): Promise<void> => {
    logger.info({ event: 'service.signal', signal }, 'shutting down');
    try {
      await service.close();
      process.exit(0);
    } catch (error) {
      logger.error({ event: 'service.close_failed', err: error }, 'close failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', (signal) => void stop(signal));
  process.once('SIGINT', (signal) => void stop(signal));
}
