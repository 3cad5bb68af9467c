import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from 'ai';
import type { Immutable, JsonValue, UserInteraction } from '@baton/protocol';

/**
 * The entries of `context.user_interaction_history` a model agent reads and writes. The customer's
 * and the agents' words are CHAT_MESSAGEs (the type the chat front end and the keyword agents
 * use); a model's tool calls and their results are TOOL_CALL and TOOL_RESULT entries, so the next
 * agent's model sees the whole exchange, as AutoGen's delegate tools pass it on.
 */
export const CHAT_MESSAGE = 'CHAT_MESSAGE';
export const TOOL_CALL = 'TOOL_CALL';
export const TOOL_RESULT = 'TOOL_RESULT';

/** Senders whose words are the customer's (the user role); every other sender is an agent. */
export const USER_SENDERS: ReadonlySet<string> = new Set(['user', 'customer']);

export type Conversation = UserInteraction[];

export interface ToolCallEntry {
  toolCallId: string;
  toolName: string;
  input: JsonValue;
}

export interface ToolResultEntry {
  toolCallId: string;
  toolName: string;
  /** What the model reads: the tool's answer, or the error that stopped the call. */
  output: string;
  isError: boolean;
}

const isUser = (entry: Immutable<UserInteraction>): boolean => USER_SENDERS.has(entry.sender.toLowerCase());

export function chatEntry(sender: string, content: string, at: Date): UserInteraction {
  return { type: CHAT_MESSAGE, sender, content, timestamp: at.toISOString() };
}

export function toolCallEntry(sender: string, call: ToolCallEntry, at: Date): UserInteraction {
  return {
    type: TOOL_CALL,
    sender,
    content: JSON.stringify(call.input),
    timestamp: at.toISOString(),
    tool_name: call.toolName,
    tool_call_id: call.toolCallId,
  };
}

export function toolResultEntry(sender: string, result: ToolResultEntry, at: Date): UserInteraction {
  return {
    type: TOOL_RESULT,
    sender,
    content: result.output,
    timestamp: at.toISOString(),
    tool_name: result.toolName,
    tool_call_id: result.toolCallId,
    is_error: result.isError,
  };
}

/**
 * The conversation an incoming handoff brings, with the customer's request (the task_summary)
 * added as their latest message when it is new to it: a task that comes from the customer ends
 * with their words; one an agent's model handed over ends with the result of its transfer call.
 */
export function conversationOf(
  history: Immutable<UserInteraction[]> | undefined,
  taskSummary: string,
  at: Date,
): Conversation {
  const conversation = structuredClone(history ?? []) as Conversation;
  const last = conversation.at(-1);
  const endsWithRequest = last !== undefined && isUser(last) && last.content === taskSummary;
  if (last?.type !== TOOL_RESULT && !endsWithRequest && taskSummary.trim() !== '') {
    conversation.push(chatEntry('user', taskSummary, at));
  }
  return conversation;
}

function stringField(entry: Immutable<UserInteraction>, field: string): string {
  const value = entry[field];
  return typeof value === 'string' ? value : '';
}

function parsedInput(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return {};
  }
}

/**
 * The conversation as the messages of a model call: the customer's entries are user messages, an
 * agent's words and tool calls one assistant message per turn, and tool results tool messages.
 * Entries of other types are read as words of their sender.
 */
export function modelMessages(conversation: Immutable<Conversation>): ModelMessage[] {
  const messages: ModelMessage[] = [];
  let assistant: AssistantModelMessage | undefined;
  let tool: ToolModelMessage | undefined;
  for (const entry of conversation) {
    if (entry.type === TOOL_RESULT) {
      assistant = undefined;
      if (tool === undefined) messages.push((tool = { role: 'tool', content: [] }));
      const output = entry.is_error === true ? 'error-text' : 'text';
      tool.content.push({
        type: 'tool-result',
        toolCallId: stringField(entry, 'tool_call_id'),
        toolName: stringField(entry, 'tool_name'),
        output: { type: output, value: entry.content },
      });
      continue;
    }
    tool = undefined;
    if (isUser(entry)) {
      assistant = undefined;
      messages.push({ role: 'user', content: entry.content });
      continue;
    }
    if (assistant === undefined) messages.push((assistant = { role: 'assistant', content: [] }));
    const parts = assistant.content as Exclude<AssistantModelMessage['content'], string>;
    if (entry.type === TOOL_CALL) {
      parts.push({
        type: 'tool-call',
        toolCallId: stringField(entry, 'tool_call_id'),
        toolName: stringField(entry, 'tool_name'),
        input: parsedInput(entry.content),
      });
    } else {
      parts.push({ type: 'text', text: entry.content });
    }
  }
  return messages;
}
