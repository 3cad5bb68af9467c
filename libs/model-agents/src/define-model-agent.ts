import type { LanguageModel } from 'ai';
import {
  defineAgent,
  type AgentActions,
  type AgentCardInfo,
  type AgentDefinition,
  type AgentHandler,
  type AgentHandlers,
} from '@baton/agent-sdk';
import type { HandoffOf, TaskTransferData } from '@baton/protocol';
import { conversationOf, USER_SENDERS, type Conversation } from './conversation.js';
import type { ModelConfig } from './model-config.js';
import {
  compileTools,
  handoffToolDescriptions,
  handoffToolName,
  modelToolSet,
  type ModelHandoffTarget,
  type ModelTool,
} from './model-tool.js';
import { runModelTurn, type ModelTurnSettings, type TurnResult } from './model-turn.js';
import { ToolCallMemo } from './tool-call-memo.js';

export interface ModelAgentDefinition {
  /** The agent's id: the recipient_id others address, and the name of its inbox. */
  id: string;
  card?: AgentCardInfo;
  /** The system message: who the agent is and how it works. */
  instructions: string;
  tools?: ModelTool[];
  /** The agents it may hand the conversation to, each offered to the model as a tool. */
  handoffs?: ModelHandoffTarget[];
  model: LanguageModel;
  config: Readonly<Pick<ModelConfig, 'provider' | 'modelId' | 'timeoutMs' | 'maxRetries' | 'maxSteps'>>;
  /** Handlers of other handoff types, beside the model's TASK_TRANSFER. */
  handlers?: Omit<AgentHandlers, 'TASK_TRANSFER'>;
  now?: () => Date;
}

const ESCALATION_NEEDS_IDENTITY =
  "cannot escalate: the customer's identity is unknown; ask the customer for the customer number their account is registered under";

/** The customer's last words: what an escalation reports as its symptoms. */
function lastCustomerWords(conversation: Conversation): string {
  return conversation.findLast((entry) => USER_SENDERS.has(entry.sender.toLowerCase()))?.content ?? '';
}

/**
 * An agent driven by a language model (seed 002's AIAgent): each TASK_TRANSFER it receives is a
 * turn of the model on the conversation in `context.user_interaction_history`. Its tools run in the
 * agent; a side-effecting tool's call is recorded in the ledger with the handled message, once per
 * handoff and call position. A handoff tool hands the task, with the conversation so far (its calls
 * and results included), to another agent through the router; a reply goes to the user with the
 * conversation, so the customer's next message can come back to this agent with it.
 */
export function defineModelAgent(definition: ModelAgentDefinition): AgentDefinition {
  const tools = definition.tools ?? [];
  const handoffs = definition.handoffs ?? [];
  const settings: ModelTurnSettings = {
    agentId: definition.id,
    instructions: definition.instructions,
    model: definition.model,
    config: definition.config,
    tools: compileTools(tools),
    handoffs: new Map(handoffs.map((target) => [handoffToolName(target), target])),
    toolSet: (descriptions) => modelToolSet(tools, handoffs, descriptions),
    memo: new ToolCallMemo(),
    now: definition.now ?? (() => new Date()),
  };
  const takeTurn: AgentHandler<'TASK_TRANSFER'> = async (handoff, act, handlerContext) => {
    const { logger } = handlerContext;
    const { metadata, context, payload } = handoff;
    const turn = await runModelTurn(settings, {
      messageId: metadata.message_id,
      taskId: metadata.task_id,
      conversation: conversationOf(context.user_interaction_history, payload.data.task_summary, settings.now()),
      handoffDescriptions: await handoffToolDescriptions(handoffs, (agentId) => handlerContext.agentCard(agentId)),
      refusal: (target) =>
        target.kind === 'escalation' && payload.data.customer_info === undefined
          ? ESCALATION_NEEDS_IDENTITY
          : undefined,
      logger,
      noteFailure: (code) => handlerContext.noteFailure(code),
    });
    actOnTurn(handoff, act, turn);
  };
  return defineAgent({
    id: definition.id,
    ...(definition.card === undefined ? {} : { card: definition.card }),
    handlers: { ...definition.handlers, TASK_TRANSFER: takeTurn },
  });
}

function actOnTurn(handoff: HandoffOf<'TASK_TRANSFER'>, act: AgentActions, turn: TurnResult): void {
  for (const effect of turn.effects) act.recordEffect(effect.tool, effect.args, effect.toolCall);
  const history = turn.conversation;
  const { end } = turn;
  if (end.kind === 'reply') {
    act.replyToUser(end.text, { user_interaction_history: history });
    return;
  }
  const { target } = end;
  const data = handoff.payload.data;
  const issueCategory = target.issue_category ?? data.issue_category;
  const toolName = handoffToolName(target);
  const reason = target.description ?? `${toolName} called`;
  const action = { action_type: toolName.toUpperCase(), details: reason };
  if (target.kind === 'escalation' && data.customer_info !== undefined) {
    act.escalate(action, {
      to: target.to,
      data: {
        issue_category: issueCategory,
        severity: handoff.metadata.priority,
        customer_info: { ...data.customer_info },
        technical_details: { symptoms: lastCustomerWords(history) },
      },
      user_interaction_history: history,
    });
    return;
  }
  act.handOff({
    to: target.to,
    handoff_type: 'TASK_TRANSFER',
    data: {
      ...(structuredClone(data) as TaskTransferData),
      issue_category: issueCategory,
      transfer_reason: reason,
    },
    action,
    user_interaction_history: history,
  });
}
