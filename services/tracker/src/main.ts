import { createLogger, runService } from '@baton/runtime';
import { buildTracker } from './tracker.js';
import { loadTrackerConfig } from './tracker-config.js';

await runService(() => buildTracker(loadTrackerConfig()).service, createLogger('tracker'));
