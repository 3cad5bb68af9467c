import type { Logger } from '../logger.js';
import type { Component } from './component.js';

/**
 * A process's components with one lifecycle. Built without starting anything; `start()` starts the
 * components in order, `close()` closes the started ones in reverse order. Every close runs even
 * when another throws; `close()` may be called at any time, also during `start()` (the component
 * starting finishes, no further one starts), and more than once.
 */
export interface ServiceOptions {
  /** For errors about the service itself; its logger names it in every line. */
  name: string;
  /** In start order. */
  components: readonly Component[];
  logger: Logger;
  /** Facts the `service.started` line carries besides the components (its HTTP address, say). */
  startedFacts?(): Record<string, unknown>;
}

export class Service {
  readonly name: string;
  private readonly components: readonly Component[];
  private readonly logger: Logger;
  private readonly started: Component[] = [];
  private starting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  /** The component whose close is under way. */
  private closingNow: string | undefined;
  private running = false;

  constructor(private readonly options: ServiceOptions) {
    ({ name: this.name, components: this.components, logger: this.logger } = options);
    const names = this.components.map((part) => part.name);
    const repeated = names.find((name, index) => names.indexOf(name) !== index);
    if (repeated !== undefined) throw new Error(`${this.name} has two components named ${repeated}`);
  }

  /** Resolves once every component has started, or at once when the service is closing. */
  start(): Promise<void> {
    this.starting ??= this.startInOrder();
    return this.starting;
  }

  /** Ready: started, not closing, and every component that can tell says it is ready. */
  isReady(): boolean {
    return this.running && this.closing === undefined && this.components.every((part) => part.isReady?.() ?? true);
  }

  /** The name of the component being closed, while a close is under way: what a stuck close waits for. */
  get closingComponent(): string | undefined {
    return this.closingNow;
  }

  /** Rejects, once all have run, with the failure of any close (an AggregateError for several). */
  close(): Promise<void> {
    this.closing ??= this.closeStarted();
    return this.closing;
  }

  private async startInOrder(): Promise<void> {
    const began = Date.now();
    for (const part of this.components) {
      if (this.closing !== undefined) return;
      const partBegan = Date.now();
      try {
        await part.start();
      } catch (error) {
        this.logger.error({ event: 'component.start_failed', component: part.name, err: error }, 'could not start');
        await this.closeInReverse();
        throw error;
      }
      this.started.push(part);
      this.logger.debug(
        { event: 'component.started', component: part.name, duration_ms: Date.now() - partBegan },
        'component started',
      );
    }
    if (this.closing !== undefined) return;
    this.running = true;
    this.logger.info(
      {
        event: 'service.started',
        ...this.options.startedFacts?.(),
        components: this.components.map((part) => part.name),
        duration_ms: Date.now() - began,
      },
      'started',
    );
  }

  private async closeStarted(): Promise<void> {
    this.logger.info({ event: 'service.stopping' }, 'stopping');
    // A component being started is closed with the others once its start is over.
    await this.starting?.catch(() => undefined);
    const failures = await this.closeInReverse();
    this.running = false;
    if (failures.length === 0) {
      this.logger.info({ event: 'service.stopped' }, 'stopped');
      return;
    }
    throw failures.length === 1
      ? failures[0]
      : new AggregateError(failures, `${failures.length} components of ${this.name} did not close cleanly`);
  }

  private async closeInReverse(): Promise<unknown[]> {
    const failures: unknown[] = [];
    for (const part of this.started.splice(0).reverse()) {
      this.closingNow = part.name;
      try {
        await part.close();
      } catch (error) {
        failures.push(error);
        this.logger.warn(
          { event: 'component.close_failed', component: part.name, err: error },
          'did not close cleanly',
        );
      }
    }
    this.closingNow = undefined;
    return failures;
  }
}
