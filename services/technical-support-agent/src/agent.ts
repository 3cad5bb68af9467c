import { defineAgent } from '@baton/agent-sdk';
import { decideEscalation } from './decide-escalation.js';

export const TECHNICAL_SUPPORT = 'technical_support_agent_pool';

/**
 * The technical support pool. It takes escalations, and the progress reports and answers
 * other agents send about tasks it passed on, which it logs; other handoff types are not its work
 * and are dead-lettered with NO_HANDLER.
 */
export const agent = defineAgent({
  id: TECHNICAL_SUPPORT,
  card: {
    name: 'TechnicalSupportAgent',
    domain: 'technical_support',
    description: 'Tier-2 technical support: resolves escalations or escalates them to the network experts.',
    skills: [
      { name: 'remote_diagnostic', description: 'Diagnoses a fault remotely' },
      { name: 'tier2_support', description: 'Resolves what customer service escalated' },
    ],
  },
  handlers: {
    ESCALATION(handoff, act) {
      const { data } = handoff.payload;
      const decision = decideEscalation(data, handoff.instructions.failure_handling_strategy);
      if (decision.kind === 'resolve') {
        act.replyToUser(decision.reply);
        act.complete(decision.summary);
        return;
      }
      act.escalate(decision.action, decision.to === undefined ? {} : { to: decision.to });
      if (decision.notice !== undefined) act.replyToUser(decision.notice);
    },
    STATUS_UPDATE(handoff, _act, { logger }) {
      const { data } = handoff.payload;
      logger.info(
        { event: 'status_update.received', sender_id: handoff.metadata.sender_id, status: data.status },
        data.details ?? data.status,
      );
    },
    PROVIDE_INFORMATION(handoff, _act, { logger }) {
      const { data } = handoff.payload;
      logger.info(
        {
          event: 'information.received',
          sender_id: handoff.metadata.sender_id,
          keys: Object.keys(data.provided_info),
          missing: data.missing_info_keys ?? [],
        },
        'information received',
      );
    },
  },
});
