type Cleanup = () => void;

const cleanups: Cleanup[] = [];
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

/**
 * Runs `cleanup` if this process exits, or is told to stop by a signal that nothing else handles,
 * before the returned function is called. Node runs no asynchronous work at that point, so
 * `cleanup` must be synchronous: kill a child, remove a directory. Cleanups run last-registered
 * first, so a process is killed before the directory it writes to is removed. When another
 * listener handles the signal (npm start, a test runner), it stops things in its own order (the
 * services before the broker they drain into) and the cleanups run only if it exits first.
 */
export function onProcessExit(cleanup: Cleanup): () => void {
  install();
  cleanups.push(cleanup);
  return () => {
    const index = cleanups.indexOf(cleanup);
    if (index !== -1) cleanups.splice(index, 1);
  };
}

function runCleanups(): void {
  for (let cleanup = cleanups.pop(); cleanup !== undefined; cleanup = cleanups.pop()) {
    try {
      cleanup();
    } catch {
      // One failed clean-up must not keep the others from running while the process dies.
    }
  }
}

/**
 * Listeners of signal-exit, which a dependency may have loaded (testcontainers' proper-lockfile
 * does, as @baton/local-infra loads): each acts only when signal-exit's are all the listeners left,
 * so counted as someone else's, it and this guard would each leave the signal to the other and the
 * process would ignore it, its JVMs left running. Counted as signal-exit 4 counts version 3's: by
 * the count each version keeps on its global emitter.
 */
function signalExitListeners(): number {
  const v3 = (process as { __signal_exit_emitter__?: { count?: unknown } }).__signal_exit_emitter__;
  const v4 = (globalThis as Record<symbol, { count?: unknown } | undefined>)[Symbol.for('signal-exit emitter')];
  return [v3?.count, v4?.count].reduce<number>((sum, count) => sum + (typeof count === 'number' ? count : 0), 0);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runCleanups);
  for (const signal of SIGNALS) {
    const onSignal = (): void => {
      // Someone else handles the signal and exits when done; the exit runs what is left.
      if (process.listenerCount(signal) - signalExitListeners() > 1) return;
      runCleanups();
      // A listener replaces Node's default of dying from the signal. As nobody else listens, die
      // from it as if we had not been here.
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
