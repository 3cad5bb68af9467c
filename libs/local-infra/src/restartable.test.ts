import { expect, test } from 'vitest';
import { restartable, type ProcessRun } from './restartable.js';

/** Runs that write what happens to them into one shared log. */
function fakeRuns() {
  const log: string[] = [];
  let launched = 0;
  const run = (name: string, failStop = false): ProcessRun => {
    log.push(`start ${name}`);
    return {
      stop: async () => {
        log.push(`stop ${name}`);
        if (failStop) throw new Error(`${name} would not stop`);
      },
    };
  };
  return {
    log,
    run,
    launch: async () => run(`run${(launched += 1)}`),
    cleanup: async () => {
      log.push('cleanup');
    },
  };
}

test('a restart ends the current run before it launches the next, one restart at a time', async () => {
  const runs = fakeRuns();
  const process = restartable(runs.run('run0'), runs.launch, runs.cleanup);

  await Promise.all([process.restart(), process.restart()]);
  await process.stop();

  expect(runs.log).toEqual([
    'start run0',
    'stop run0',
    'start run1',
    'stop run1',
    'start run2',
    'stop run2',
    'cleanup',
  ]);
});

test('stop waits for a restart in progress and ends the run it launched; a second stop shares the first', async () => {
  const runs = fakeRuns();
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const slowLaunch = async () => {
    await gate;
    return runs.run('late');
  };
  const process = restartable(runs.run('run0'), slowLaunch, runs.cleanup);

  const restarting = process.restart();
  const stopping = process.stop();
  expect(process.stop()).toBe(stopping);
  open();
  await restarting;
  await stopping;

  expect(runs.log).toEqual(['start run0', 'stop run0', 'start late', 'stop late', 'cleanup']);
});

test('no restart after stop', async () => {
  const runs = fakeRuns();
  const process = restartable(runs.run('run0'), runs.launch, runs.cleanup);

  await process.stop();

  await expect(process.restart()).rejects.toThrow('cannot be restarted');
  expect(runs.log).toEqual(['start run0', 'stop run0', 'cleanup']);
});

test('a failed launch leaves nothing running; the next restart tries again, and stop still cleans up', async () => {
  const runs = fakeRuns();
  let attempts = 0;
  const flakyLaunch = async () => {
    attempts += 1;
    if (attempts === 1) throw new Error('port taken');
    return runs.launch();
  };
  const process = restartable(runs.run('run0'), flakyLaunch, runs.cleanup);

  await expect(process.restart()).rejects.toThrow('port taken');
  await process.restart();
  await process.stop();

  expect(runs.log).toEqual(['start run0', 'stop run0', 'start run1', 'stop run1', 'cleanup']);
});

test('cleanup runs even when the run will not stop, and the failure is reported', async () => {
  const runs = fakeRuns();
  const process = restartable(runs.run('stubborn', true), runs.launch, runs.cleanup);

  await expect(process.stop()).rejects.toThrow('stubborn would not stop');

  expect(runs.log).toEqual(['start stubborn', 'stop stubborn', 'cleanup']);
});
