/** What tracing writes to: a pino logger fits. */
export interface TracingLogger {
  info(facts: Record<string, unknown>, message: string): void;
  warn(facts: Record<string, unknown>, message: string): void;
  error(facts: Record<string, unknown>, message: string): void;
}
