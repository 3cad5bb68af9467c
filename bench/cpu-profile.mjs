// Preloaded into a service by `DRAIN_PROFILE_DIR=<dir> npm run bench:drain` (through NODE_OPTIONS
// `--import`, since Node refuses `--cpu-prof` there): samples the process's CPU from the moment it
// receives SIGUSR2 (the drain sends it before its measured pass, so start-up and warm-up stay out)
// and writes `<dir>/<pid>-<entry>.cpuprofile` when it exits, for Chrome DevTools or speedscope.
import inspector from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const directory = process.env.DRAIN_PROFILE_DIR;
if (directory) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  // 0.5 ms between samples: a pass lasts seconds, and the default 1 ms misses short functions.
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  let started = false;
  process.on('SIGUSR2', () => {
    if (started) return;
    started = true;
    session.post('Profiler.start');
  });
  process.on('exit', () => {
    if (!started) return;
    // An in-process session answers synchronously, so the profile is written before the process ends.
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      const name = `${process.pid}-${basename(process.argv[1] ?? 'node')}.cpuprofile`;
      writeFileSync(join(directory, name), JSON.stringify(result.profile));
    });
  });
}
