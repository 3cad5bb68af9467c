import { BatonError } from '@baton/errors';
import type { OutputRecord, TopicNames } from '@baton/kafka';
import { openNegotiation, openingRecords, type NegotiationOpener } from '@baton/negotiation';
import type {
  HandoffDataByType,
  HandoffInstructions,
  HandoffOutcomeKind,
  HandoffType,
  UserInteraction,
} from '@baton/protocol';
import { handoffRecord, outcomeRecord, type Handoff, type HandoffServiceContext } from '@baton/runtime';
import { deriveHandoff, type AgentAction, type NextHandoff } from './derive-handoff.js';
import { ledgerRecord, type ToolCallRecord } from './ledger-entry.js';

/**
 * What AgentActions writes with: the service's codecs and topics, and what requestHandoff needs
 * (where it stores a context too large to travel in the message, and receivers' control topics).
 */
export interface AgentActionsContext
  extends
    Pick<HandoffServiceContext, 'codec' | 'outcomeCodec' | 'lifecycleCodec' | 'stagedCodec' | 'topics'>,
    NegotiationOpener {}

/** A handoff offered by negotiation: one receiver, and what the sender asks of it. */
export type RequestedHandoff<T extends HandoffType = HandoffType> = NextHandoff<T> & {
  to: string;
  /** Why the task is handed over: lacking skill, out of scope, load balancing... */
  reason: string;
  /** The kind of agent wanted, matched against the receiver's id, name, domain and skills. */
  desired_agent_type: string;
};

/** The incoming instructions for the next tier, without the escalate_to that brought the task there. */
function carriedInstructions(incoming: Handoff): HandoffInstructions {
  const instructions = structuredClone(incoming.instructions) as HandoffInstructions;
  if (instructions.failure_handling_strategy) {
    delete instructions.failure_handling_strategy.escalate_to;
    if (Object.keys(instructions.failure_handling_strategy).length === 0) delete instructions.failure_handling_strategy;
  }
  return instructions;
}

/** The recipient of agents' replies to the user. */
export const USER_RECIPIENT = 'user';

// When a handler takes several actions, the outcome event names the one that moves the task most.
// ROUTED and NOT_DELIVERED are the router's, never an agent's.
const OUTCOME_RANK: Record<HandoffOutcomeKind, number> = {
  PROCESSED: 0,
  REPLIED: 1,
  COMPLETED: 2,
  INFORMATION_REQUESTED: 3,
  HANDED_OFF: 4,
  HANDOFF_REQUESTED: 4,
  ESCALATED: 5,
  ROUTED: 0,
  NOT_DELIVERED: 0,
  DEAD_LETTERED: 6,
};

/**
 * What a handler may do with a handoff. Nothing is sent while the handler runs: the actions become
 * records written in one transaction with the consumed offset, so a redelivered or retried message
 * never sends them twice.
 */
export class AgentActions {
  private readonly records: OutputRecord[] = [];
  private outcome: HandoffOutcomeKind = 'PROCESSED';
  private readonly targets: string[] = [];
  private detail: string | undefined;
  /** requestHandoff calls still storing their context: their records are not queued yet. */
  private requesting = 0;

  constructor(
    private readonly agentId: string,
    private readonly incoming: Handoff,
    private readonly context: AgentActionsContext,
    private readonly traceparent: string | undefined,
    private readonly now: () => Date,
  ) {}

  /** The topic names of the agent's installation, for records of its own (see `emit`). */
  get topics(): TopicNames {
    return this.context.topics;
  }

  /** Hands the task to another agent, through the router, with the whole context. */
  handOff<T extends HandoffType>(next: NextHandoff<T>): Handoff {
    return this.send(next, 'HANDED_OFF');
  }

  /**
   * Offers the task to one agent by negotiation instead of sending it: the receiver may
   * accept or reject, and the tracker runs the sender's side from here (sends the context to the
   * agent that accepts, applies timeouts and the failure_handling_strategy of the handoff). The
   * handoff `next` describes is the context offered; the receiver's handlers get it as it is once
   * the receiver takes it over. A context whose JSON is over the inline limit is stored first, so
   * await this before the handler returns.
   */
  async requestHandoff<T extends HandoffType>(next: RequestedHandoff<T>): Promise<Handoff> {
    this.requesting += 1;
    try {
      const { reason, desired_agent_type, ...offered } = next;
      const message = deriveHandoff(this.incoming, this.agentId, offered, { now: this.now });
      const summary = message.context.historical_data_summary;
      const opening = await openNegotiation(
        message,
        {
          reason,
          desired_agent_type,
          summary: summary || next.action.details || reason,
          taskDescription: next.action.details || summary,
        },
        this.context,
        { now: this.now },
      );
      this.records.push(...openingRecords(this.context, this.topics, opening));
      this.note('HANDOFF_REQUESTED', next.to);
      return message;
    } finally {
      this.requesting -= 1;
    }
  }

  /**
   * Escalates to the incoming message's failure_handling_strategy.escalate_to, or to `to`. The
   * data defaults to the incoming ESCALATION data; the instructions to the incoming ones, less the
   * escalate_to just used, so required actions and success criteria travel up the chain.
   */
  escalate(
    action: AgentAction,
    options: {
      to?: string | string[];
      data?: HandoffDataByType['ESCALATION'];
      instructions?: HandoffInstructions;
      /** The conversation the escalation carries, in place of the incoming one (see NextHandoff). */
      user_interaction_history?: UserInteraction[];
    } = {},
  ): Handoff {
    const strategy = this.incoming.instructions.failure_handling_strategy;
    const to = options.to ?? strategy?.escalate_to;
    if (to === undefined) {
      throw new BatonError('NO_ESCALATION_TARGET', 'nowhere to escalate: no escalate_to in failure_handling_strategy');
    }
    const data =
      options.data ??
      (this.incoming.payload.handoff_type === 'ESCALATION' ? structuredClone(this.incoming.payload.data) : undefined);
    if (data === undefined) {
      throw new BatonError('NO_ESCALATION_TARGET', 'escalating a non-ESCALATION handoff needs escalation data');
    }
    return this.send(
      {
        to,
        handoff_type: 'ESCALATION',
        data: data as HandoffDataByType['ESCALATION'],
        action,
        workflow_state: 'ESCALATED',
        instructions: options.instructions ?? carriedInstructions(this.incoming),
        ...(options.user_interaction_history === undefined
          ? {}
          : { user_interaction_history: options.user_interaction_history }),
      },
      'ESCALATED',
    );
  }

  /** Asks another agent for information; its answer comes back as PROVIDE_INFORMATION. */
  requestInformation(from: string, keys: string[], action: AgentAction, query?: Record<string, string>): Handoff {
    return this.send(
      {
        to: from,
        handoff_type: 'REQUEST_INFORMATION',
        data: { requested_info_keys: keys, ...(query === undefined ? {} : { query_parameters: query }) },
        action,
        workflow_state: 'AWAITING_INFORMATION',
      },
      'INFORMATION_REQUESTED',
    );
  }

  /**
   * Tells the user something, on the user-replies topic. The reply's context carries the
   * conversation (`user_interaction_history`, the incoming one unless given), so the user's next
   * message can go back to this agent with it.
   */
  replyToUser(text: string, options: { user_interaction_history?: UserInteraction[] } = {}): void {
    const reply = deriveHandoff(
      this.incoming,
      this.agentId,
      {
        to: USER_RECIPIENT,
        handoff_type: 'NOTIFICATION',
        data: { event_type: 'AGENT_REPLY', message: text },
        action: { action_type: 'REPLY_TO_USER', details: text },
        ...(options.user_interaction_history === undefined
          ? {}
          : { user_interaction_history: options.user_interaction_history }),
      },
      { now: this.now },
    );
    this.records.push(
      handoffRecord(this.context.codec, this.topics.userReplies, reply, { parentTraceparent: this.traceparent }),
    );
    this.note('REPLIED');
  }

  /** Records that the task is done at this agent. */
  complete(summary: string): void {
    this.detail = summary;
    this.note('COMPLETED');
  }

  /**
   * Records a side effect in the ledger, exactly once for this message. A model agent's tool call
   * names itself (`toolCall`): its position in the handling, so one message may record the same
   * effect at several positions, and the result the tool gave.
   */
  recordEffect(effect: string, args: Record<string, unknown>, toolCall?: ToolCallRecord): void {
    this.records.push(
      ledgerRecord(
        this.topics.ledger,
        {
          task_id: this.incoming.metadata.task_id,
          message_id: this.incoming.metadata.message_id,
          agent_id: this.agentId,
          effect,
          args,
          ...(toolCall === undefined ? {} : { tool_call: toolCall }),
        },
        this.now(),
      ),
    );
  }

  /**
   * Writes a record of the agent's own, such as an entry in a state topic it keeps, in the same
   * transaction as the handled message: it exists exactly when the message counts as processed.
   * The agent creates the topic.
   */
  emit(record: OutputRecord): void {
    this.records.push(record);
  }

  /**
   * Publishes a whole handoff message the handler built (with deriveHandoff, say) to the inbound
   * topic, in the same transaction as the handled message, without counting it as this message's
   * outcome: for reports and notifications beside the handler's own decision.
   */
  emitHandoff(message: Handoff): void {
    this.records.push(
      handoffRecord(this.context.codec, this.topics.inbound, message, { parentTraceparent: this.traceparent }),
    );
  }

  /** Everything the handler asked for, plus the one outcome event of the handled message. */
  outputs(): OutputRecord[] {
    if (this.requesting > 0) {
      // Committing now would drop the request's records while counting the message processed.
      throw new Error('the handler returned before its requestHandoff finished: await it');
    }
    const event = outcomeRecord(
      this.context.outcomeCodec,
      this.topics.events,
      this.incoming,
      {
        agentId: this.agentId,
        outcome: this.outcome,
        ...(this.targets.length === 0 ? {} : { target: [...new Set(this.targets)].join(',') }),
        ...(this.detail === undefined ? {} : { detail: this.detail }),
      },
      this.now(),
    );
    // Of its final length: a copy spread or pushed into may keep spare slots until the transaction commits.
    const outputs = new Array<OutputRecord>(this.records.length + 1);
    for (let index = 0; index < this.records.length; index += 1) outputs[index] = this.records[index] as OutputRecord;
    outputs[this.records.length] = event;
    return outputs;
  }

  private send<T extends HandoffType>(next: NextHandoff<T>, outcome: HandoffOutcomeKind): Handoff {
    const message = deriveHandoff(this.incoming, this.agentId, next, { now: this.now });
    this.records.push(
      handoffRecord(this.context.codec, this.topics.inbound, message, { parentTraceparent: this.traceparent }),
    );
    this.note(outcome, ...(typeof next.to === 'string' ? [next.to] : next.to));
    return message;
  }

  private note(outcome: HandoffOutcomeKind, ...targets: string[]): void {
    if (OUTCOME_RANK[outcome] >= OUTCOME_RANK[this.outcome]) this.outcome = outcome;
    this.targets.push(...targets);
  }
}
