export { createTestTopic } from './topics.js';
export { uniqueName } from './unique-name.js';
export { waitFor, type WaitForOptions } from './wait-for.js';
