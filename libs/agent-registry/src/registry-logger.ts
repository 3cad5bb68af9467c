/** What the registry logs through: a pino logger fits. */
export interface RegistryLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}
