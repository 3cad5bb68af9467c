import type { AgentCard, FailureTally } from '@baton/agent-registry';
import { messageLogger, type Handoff, type Logger } from '@baton/runtime';
import type { HandlerContext } from './agent-definition.js';
import type { RegistryCards } from './registry-cards.js';

/**
 * What a handler gets beside the handoff. Its logger, a child logger, is made only when the
 * handler logs: most handlers do not, and a pino child for every handoff was a sizeable part of an
 * agent's garbage. A class, so the getter lives on its prototype rather than in a new object shape
 * per handoff.
 */
export class MessageHandlerContext implements HandlerContext {
  private child: Logger | undefined;

  constructor(
    private readonly serviceLogger: Logger,
    private readonly handoff: Handoff,
    readonly attempt: number,
    private readonly cards: Pick<RegistryCards, 'card'>,
    private readonly failures: Pick<FailureTally, 'note'>,
  ) {}

  noteFailure(code: string): void {
    this.failures.note(code);
  }

  agentCard(agentId: string): Promise<AgentCard | undefined> {
    return this.cards.card(agentId, this.logger);
  }

  get logger(): Logger {
    this.child ??= messageLogger(this.serviceLogger, this.handoff);
    return this.child;
  }
}
