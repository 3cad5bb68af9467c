declare module 'vitest' {
  /** What test/global-setup.ts provides to every integration test through `inject()`. */
  export interface ProvidedContext {
    kafkaBrokers: string[];
    /** The Confluent-compatible schema registry API. */
    schemaRegistryUrl: string;
  }
}

export {};
