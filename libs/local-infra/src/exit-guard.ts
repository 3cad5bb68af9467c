type Cleanup = () => void;

const cleanups: Cleanup[] = [];
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

/**
 * Runs `cleanup` if this process exits, or is told to stop by a signal, before the returned
 * function is called. Node runs no asynchronous work at that point, so `cleanup` must be
 * synchronous: kill a child, remove a directory. Cleanups run last-registered first, so a process
 * is killed before the directory it writes to is removed.
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

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runCleanups);
  for (const signal of SIGNALS) {
    const onSignal = (): void => {
      runCleanups();
      // A listener replaces Node's default of dying from the signal. When nobody else (a test
      // runner, a service's shutdown) listens, die from it as if we had not been here.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}
