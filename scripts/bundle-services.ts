/**
 * `tsx scripts/bundle-services.ts`: bundles every service of services/ (dist/services/<name>/src/main.mjs),
 * as the Docker image does at build time; npm start, the bench and the tests bundle what they start.
 */
import { bundleServices } from './lib/service-bundle.js';
import { discoverServices, serviceEntry } from './lib/service-entries.js';

const entries = (await discoverServices()).map(serviceEntry);
await bundleServices(entries);
process.stdout.write(`bundled ${entries.length} services into dist/\n`);
