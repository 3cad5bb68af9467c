import { SpanKind, type Attributes, type Span } from '@opentelemetry/api';
import { GEN_AI } from './attribute-names.js';
import { withSpan } from './with-span.js';

export interface ModelCall {
  /** `chat` for a chat completion, the GenAI conventions' well-known names otherwise. @default 'chat' */
  operation?: string;
  /** `openai`, `anthropic`, or the name of an OpenAI-compatible server (`ollama`, `vllm`). */
  provider: string;
  /** The model id asked for. */
  model: string;
}

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface ToolCall {
  name: string;
  /** The model's id for the call, when it gave one. */
  callId?: string;
}

/**
 * Runs one call to a model in a CLIENT span `chat <model>` with the GenAI attributes of the call;
 * `fn` adds what the answer tells (recordModelResponse) on the span it is given.
 */
export function withModelCall<T>(call: ModelCall, fn: (span: Span) => Promise<T> | T): Promise<T> {
  const operation = call.operation ?? 'chat';
  return withSpan(
    `${operation} ${call.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [GEN_AI.operationName]: operation,
        [GEN_AI.providerName]: call.provider,
        [GEN_AI.system]: call.provider,
        [GEN_AI.requestModel]: call.model,
      },
    },
    fn,
  );
}

/** The GenAI attributes of a model's answer: token counts, and the model that answered when known. */
export function modelResponseAttributes(usage: TokenUsage, responseModel?: string): Attributes {
  const attributes: Attributes = {};
  if (usage.inputTokens !== undefined) attributes[GEN_AI.inputTokens] = usage.inputTokens;
  if (usage.outputTokens !== undefined) attributes[GEN_AI.outputTokens] = usage.outputTokens;
  if (responseModel !== undefined) attributes[GEN_AI.responseModel] = responseModel;
  return attributes;
}

/** Sets a model answer's token counts (and the model that answered) on the span of its call. */
export function recordModelResponse(span: Span, usage: TokenUsage, responseModel?: string): void {
  span.setAttributes(modelResponseAttributes(usage, responseModel));
}

/** Runs one tool the model asked for in an INTERNAL span `execute_tool <name>`. */
export function withToolCall<T>(call: ToolCall, fn: (span: Span) => Promise<T> | T): Promise<T> {
  const attributes: Attributes = { [GEN_AI.operationName]: 'execute_tool', [GEN_AI.toolName]: call.name };
  if (call.callId !== undefined) attributes[GEN_AI.toolCallId] = call.callId;
  return withSpan(`execute_tool ${call.name}`, { kind: SpanKind.INTERNAL, attributes }, fn);
}
