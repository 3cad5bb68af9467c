import { AgentRegistryReader, AgentRegistryView, type AgentCard, type RegistryConfig } from '@baton/agent-registry';
import { BatonError } from '@baton/errors';
import { component, type Component, type HandoffServiceContext, type Logger } from '@baton/runtime';
import { agentGroupId } from './agent-groups.js';

/**
 * How old the cards a handler reads may be. Cards change when an agent is redeployed, not between
 * two handoffs, so a handler reads the registry at most this often rather than on every handoff.
 */
export const CARD_MAX_AGE_MS = 30_000;

/** What RegistryCards needs of an AgentRegistryReader. */
export type RegistryReading = Pick<AgentRegistryReader, 'start' | 'stop' | 'refresh'>;

function registryReader(
  agentId: string,
  { config, topics, kafka, logger }: HandoffServiceContext,
  view: AgentRegistryView,
): AgentRegistryReader {
  return new AgentRegistryReader({
    kafka,
    topic: topics.agents,
    groupId: `${agentGroupId(topics, agentId)}.registry.${config.instanceId}`,
    view,
    logger,
    live: false,
  });
}

/** The cards of the instances live at `now`: the agents a rejection may suggest. */
export function liveAgentCards(view: Pick<AgentRegistryView, 'agents'>, now: Date): AgentCard[] {
  return view
    .agents(now)
    .flatMap((agent) => agent.instances.filter((instance) => instance.live).map(({ card }) => card));
}

/**
 * An agent process's view of the agent registry (`<prefix>.agents`): read to its end at start, then
 * read on only when asked, since following every instance's heartbeats (each instance's every 5 s)
 * woke every agent several times a second. Negotiation asks before each rejection's suggestions;
 * handlers ask for another agent's card (a model agent's handoff tools describe their targets with
 * them) and get one at most CARD_MAX_AGE_MS old.
 */
export class RegistryCards {
  private readonly view: AgentRegistryView;
  private reader: RegistryReading | undefined;
  private refreshedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;

  constructor(
    agentId: string,
    registry: Readonly<Pick<RegistryConfig, 'livenessWindowMs'>>,
    private readonly now: () => Date,
    private readonly readerOf: (context: HandoffServiceContext, view: AgentRegistryView) => RegistryReading = (
      context,
      view,
    ) => registryReader(agentId, context, view),
  ) {
    this.view = new AgentRegistryView({ livenessWindowMs: registry.livenessWindowMs });
  }

  component(context: HandoffServiceContext): Component {
    const reader = (this.reader ??= this.readerOf(context, this.view));
    return component('registry-reader', {
      start: async () => {
        await reader.start();
        this.refreshedAt = this.now().getTime();
      },
      close: () => reader.stop(),
    });
  }

  /** The cards of the instances live now, after reading the registry to its end. */
  async liveCards(): Promise<AgentCard[]> {
    await this.refresh();
    return liveAgentCards(this.view, this.now());
  }

  /**
   * `agentId`'s card, as its instance that heartbeated last published it; undefined when it has
   * none. The registry is read again when what was read is CARD_MAX_AGE_MS old, or has no card of
   * the agent (one that registered after this one started). When it cannot be read, the card last
   * read is answered and the failure logged: a card describes, it does not decide, so it is no
   * reason to fail a handoff.
   */
  async card(agentId: string, logger: Logger): Promise<AgentCard | undefined> {
    const known = this.view.agent(agentId, this.now())?.card;
    if (known === undefined || this.now().getTime() - this.refreshedAt >= CARD_MAX_AGE_MS) {
      await this.refresh().catch((error: unknown) =>
        logger.warn(
          { event: 'registry.refresh_failed', code: 'KAFKA_UNAVAILABLE', err: error },
          'the agent registry could not be read; the cards last read are used',
        ),
      );
    }
    return this.view.agent(agentId, this.now())?.card;
  }

  /** Reads the registry to the end it has now; concurrent callers share one read. */
  private refresh(): Promise<void> {
    const reader = this.reader;
    if (reader === undefined) return Promise.reject(new Error('the registry reader has not started'));
    this.refreshing ??= reader
      .refresh()
      .then(
        () => {
          this.refreshedAt = this.now().getTime();
        },
        (cause: unknown) => {
          throw new BatonError('KAFKA_UNAVAILABLE', 'the agent registry could not be read', { cause });
        },
      )
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }
}
