import { startTracing, type Tracing } from '@baton/telemetry';
import type { Logger } from '../logger.js';
import { integerSetting } from '../service-config.js';
import type { Service } from './service.js';

/**
 * How long a close may take before the process gives up on it: under Kubernetes' default grace
 * period (30 s), after which the kubelet kills the process without a word.
 */
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000;

/**
 * A service process's main: builds the service, starts tracing (when the OTEL_* variables ask for
 * it) and the service, and on SIGTERM or SIGINT closes it (drain, commit, disconnect), exports the
 * last spans and exits 0; exits 1 when build, start or close fails. A signal during start closes
 * what has started and exits 0: stopping a starting service is not a failure. A further signal
 * while the service drains is noted and ignored, so the drain is never cut short by a second
 * Ctrl-C or a supervisor that repeats itself; SIGKILL remains for a forced stop. A close that
 * takes longer than BATON_SHUTDOWN_TIMEOUT_MS (25 s) is given up: the process logs which component
 * it was waiting for and exits 1, rather than hang until a supervisor kills it unexplained.
 */
export async function runService(build: () => Promise<Service> | Service, logger: Logger): Promise<void> {
  // Read with the service's own settings, so that a bad value is reported as theirs are; a signal
  // before then is given the default.
  let shutdownTimeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS;
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
    const deadline = setTimeout(() => {
      logger.error(
        { event: 'service.close_timeout', component: service?.closingComponent, timeout_ms: shutdownTimeoutMs },
        'close did not finish in time',
      );
      // Not through exit(): the spans' export may be what is stuck.
      process.exit(1);
    }, shutdownTimeoutMs);
    let code = 0;
    try {
      await service?.close();
    } catch (error) {
      logger.error({ event: 'service.close_failed', err: error }, 'close failed');
      code = 1;
    }
    clearTimeout(deadline);
    await exit(code);
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
  try {
    shutdownTimeoutMs = integerSetting(process.env, 'BATON_SHUTDOWN_TIMEOUT_MS', DEFAULT_SHUTDOWN_TIMEOUT_MS);
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
