import { startTracing, type Tracing } from '@baton/telemetry';
import type { Logger } from '../logger.js';
import type { Service } from './service.js';

/**
 * A service process's main: builds the service, starts tracing (when the OTEL_* variables ask for
 * it) and the service, and on SIGTERM or SIGINT closes it (drain, commit, disconnect), exports the
 * last spans and exits 0; exits 1 when build, start or close fails. A signal during start closes
 * what has started and exits 0: stopping a starting service is not a failure. A further signal
 * while the service drains is noted and ignored, so the drain is never cut short by a second
 * Ctrl-C or a supervisor that repeats itself; SIGKILL remains for a forced stop.
 */
export async function runService(build: () => Promise<Service> | Service, logger: Logger): Promise<void> {
  let service: Service | undefined;
  let tracing: Tracing | undefined;
  let stopping = false;
  const exit = async (code: number): Promise<never> => {
    // After the service: the spans of its drain are among the last exported.
    await tracing?.close();
    process.exit(code);
  };
  const stop = async (signal: string): Promise<void> => {
    if (stopping) {
      logger.info({ event: 'service.signal_ignored', signal }, 'already draining');
      return;
    }
    stopping = true;
    logger.info({ event: 'service.signal', signal }, 'shutting down');
    try {
      await service?.close();
    } catch (error) {
      logger.error({ event: 'service.close_failed', err: error }, 'close failed');
      await exit(1);
    }
    await exit(0);
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
  try {
    service = await build();
    if (stopping) {
      await service.close();
      return;
    }
    tracing = await startTracing({ serviceName: service.name, logger });
    await service.start();
  } catch (error) {
    // A start cut short by a signal is the close's to report.
    if (stopping) return;
    logger.fatal({ event: 'service.start_failed', err: error }, 'could not start');
    await service?.close().catch(() => undefined);
    await exit(1);
  }
}
