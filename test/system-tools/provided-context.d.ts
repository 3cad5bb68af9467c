import type { ToolStatuses } from './tools.js';

declare module 'vitest' {
  /** What test/system-tools/global-setup.ts provides to the projects that drive system tools. */
  export interface ProvidedContext {
    systemTools: ToolStatuses;
  }
}

export {};
