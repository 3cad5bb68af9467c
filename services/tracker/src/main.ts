import { createLogger, runUntilSignalled } from '@baton/runtime';
import { Tracker } from './tracker.js';
import { loadTrackerConfig } from './tracker-config.js';

await runUntilSignalled(async () => Tracker.start(loadTrackerConfig()), createLogger('tracker'));
