import type { AcceptedNegotiation } from '@baton/gateway-api';
import { isLegalTopicName, type OutputRecord, type TopicNames } from '@baton/kafka';
import { openNegotiation, openingRecords, type NegotiationOpener } from '@baton/negotiation';
import { nameBasedUuid } from '@baton/protocol';
import type { LifecycleCodec, StagedContextCodec } from '@baton/wire';
import { kafkaDeadline, kafkaFailure } from './kafka-deadline.js';
import { readNegotiationBody, type NegotiationBody } from './negotiation-body.js';

export interface NegotiationSubmitterOptions {
  /** Stores large contexts and creates receivers' control topics, as an agent's requestHandoff does. */
  opener: NegotiationOpener;
  /** Writes records in one Kafka transaction, acknowledged by every in-sync replica. */
  send(records: OutputRecord[]): Promise<unknown>;
  codecs: { lifecycleCodec: LifecycleCodec; stagedCodec: StagedContextCodec };
  topics: TopicNames;
  /** How long opening may take, context put included, before the answer is 503. */
  timeoutMs: number;
  now?: () => Date;
}

/**
 * Opens negotiated handoffs for HTTP clients, exactly as an agent's `act.requestHandoff` does: the
 * context (the whole handoff) is stored first when over the inline limit, the receiver's control
 * topic is created if missing, then the staged context and the HandoffRequest go to the events
 * topic and the request to the receiver's control topic in one transaction. The tracker runs the
 * sender's side from there, on behalf of the handoff's sender_id.
 *
 * The request's message_id is derived from the handoff's, so a client that retries after a 503 (the
 * transaction may yet have committed) with the same handoff message_id opens one negotiation: the
 * tracker, the receiver and the task view all take a message_id once.
 */
export class NegotiationSubmitter {
  constructor(private readonly options: NegotiationSubmitterOptions) {}

  async submit(body: unknown): Promise<AcceptedNegotiation> {
    const { topics } = this.options;
    const asked = readNegotiationBody(body, (id) => isLegalTopicName(topics.agentControl(id)));
    const opened = await kafkaDeadline(
      this.open(asked).catch((error: unknown) => {
        throw kafkaFailure(error, 'open the negotiation');
      }),
      this.options.timeoutMs,
      'the negotiation',
    );
    return {
      negotiation_id: opened.request.message_id,
      task_id: asked.handoff.metadata.task_id,
      receiver: asked.receiver,
      context_mode: opened.staged.context.context_ref === undefined ? 'by-value' : 'by-reference',
    };
  }

  private async open({ handoff, desired_agent_type, reason }: NegotiationBody) {
    const summary = handoff.context.historical_data_summary;
    const opening = await openNegotiation(
      handoff,
      { reason, desired_agent_type, summary: summary || reason, taskDescription: summary },
      this.options.opener,
      {
        newId: () => nameBasedUuid(`${handoff.metadata.message_id}/negotiation`),
        ...(this.options.now === undefined ? {} : { now: this.options.now }),
      },
    );
    await this.options.send(openingRecords(this.options.codecs, this.options.topics, opening));
    return opening;
  }
}
