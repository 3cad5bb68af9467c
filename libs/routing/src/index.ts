export * from './routing/index.js';
export * from './authorization/index.js';
