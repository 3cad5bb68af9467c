import { setTimeout as sleep } from 'node:timers/promises';
import type { LanguageModel, ToolSet } from 'ai';
import { BatonError, isBatonError } from '@baton/errors';
import { backoffDelayMs, type BackoffPolicy } from '@baton/kafka';
import type { JsonObject, JsonValue } from '@baton/protocol';
import type { Logger } from '@baton/runtime';
import { SpanStatusCode, recordModelResponse, withModelCall, withToolCall } from '@baton/telemetry';
import type { ToolCallRecord } from '@baton/agent-sdk';
import {
  chatEntry,
  modelMessages,
  toolCallEntry,
  toolResultEntry,
  type Conversation,
  type ToolResultEntry,
} from './conversation.js';
import type { ModelConfig } from './model-config.js';
import { modelCallError } from './model-errors.js';
import { argumentErrors, resultText, type CompiledTool, type ModelHandoffTarget } from './model-tool.js';
import type { ToolCallMemo } from './tool-call-memo.js';

/** What an agent's model works with; built once per agent. */
export interface ModelTurnSettings {
  agentId: string;
  instructions: string;
  model: LanguageModel;
  config: Readonly<Pick<ModelConfig, 'provider' | 'modelId' | 'timeoutMs' | 'maxRetries' | 'maxSteps'>>;
  tools: ReadonlyMap<string, CompiledTool>;
  /** Handoff targets by the name of their tool. */
  handoffs: ReadonlyMap<string, ModelHandoffTarget>;
  /** The tools as the model is offered them, with these handoff tool descriptions (see modelToolSet). */
  toolSet: (handoffDescriptions: ReadonlyMap<string, string>) => Promise<ToolSet>;
  memo: ToolCallMemo;
  now: () => Date;
  /** Waits between retries of a model call. */
  retryBackoff?: BackoffPolicy;
}

/** The handoff the turn works on. */
export interface TurnInput {
  messageId: string;
  taskId: string;
  conversation: Conversation;
  /** Each handoff tool's description, by tool name (see handoffToolDescriptions). */
  handoffDescriptions: ReadonlyMap<string, string>;
  /** Why a handoff target cannot be handed to now (told to the model as its tool's error), if it cannot. */
  refusal(target: ModelHandoffTarget): string | undefined;
  logger: Logger;
  /** Told of each failed model call (its code) and each tool that failed (TOOL_FAILED, or the tool's code). */
  noteFailure(code: string): void;
}

/** A side effect a tool call performed, for the ledger. */
export interface PerformedEffect {
  tool: string;
  args: JsonObject;
  toolCall: ToolCallRecord;
}

export type TurnEnd = { kind: 'reply'; text: string } | { kind: 'handoff'; target: ModelHandoffTarget };

export interface TurnResult {
  end: TurnEnd;
  /** The conversation with the turn's words, calls and results added, to pass on. */
  conversation: Conversation;
  effects: PerformedEffect[];
}

/** The code a tool's failure is counted under when it throws something other than a BatonError. */
export const TOOL_FAILED = 'TOOL_FAILED';

const RETRY_BACKOFF: BackoffPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, multiplier: 2 };

interface Call {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid?: boolean;
  error?: unknown;
}

/**
 * One agent's turn on a handoff, as AutoGen's AIAgent runs it: the model answers the conversation;
 * its tool calls are run and their results given back to it until it replies to the user or calls
 * a handoff tool. A call to an unknown tool or with arguments that break the tool's parameters is
 * answered as a tool error, for the model to correct. Past `maxSteps` model calls the turn fails
 * with MODEL_STEP_LIMIT.
 */
export async function runModelTurn(settings: ModelTurnSettings, input: TurnInput): Promise<TurnResult> {
  const { agentId, now } = settings;
  const conversation = input.conversation;
  const effects: PerformedEffect[] = [];
  for (let step = 0; step < settings.config.maxSteps; step++) {
    const answer = await generate(settings, conversation, input);
    if (answer.text !== '') conversation.push(chatEntry(agentId, answer.text, now()));
    const calls = answer.toolCalls as Call[];
    if (calls.length === 0) {
      if (answer.text === '') {
        throw new BatonError('HANDLER_FAILED', 'the model answered with neither words nor a tool call');
      }
      return { end: { kind: 'reply', text: answer.text }, conversation, effects };
    }
    for (const call of calls)
      conversation.push(toolCallEntry(agentId, { ...call, input: jsonInput(call.input) }, now()));
    let handoff: ModelHandoffTarget | undefined;
    for (const [index, call] of calls.entries()) {
      const position = `${step}.${index}`;
      const target = settings.handoffs.get(call.toolName);
      const result = await withToolCall({ name: call.toolName, callId: call.toolCallId }, async (span) => {
        let answered: ToolResultEntry;
        if (target !== undefined && !call.invalid) {
          const refused = handoff === undefined ? input.refusal(target) : 'only one transfer per answer';
          if (refused === undefined) handoff = target;
          answered = {
            ...call,
            output: refused ?? `Transferred to ${target.to}. Adopt persona immediately.`,
            isError: refused !== undefined,
          };
        } else {
          answered = await runTool(settings, input, call, position, effects);
        }
        // The model is told of the error and goes on; the span still shows the call failed.
        if (answered.isError) span.setStatus({ code: SpanStatusCode.ERROR, message: answered.output });
        return answered;
      });
      conversation.push(toolResultEntry(agentId, result, now()));
    }
    if (handoff !== undefined) return { end: { kind: 'handoff', target: handoff }, conversation, effects };
  }
  throw new BatonError(
    'MODEL_STEP_LIMIT',
    `${agentId}'s model called tools ${settings.config.maxSteps} times without replying or handing off`,
    { details: { maxSteps: settings.config.maxSteps } },
  );
}

function jsonInput(input: unknown): JsonValue {
  return input === undefined ? {} : (input as JsonValue);
}

/** One model call, retried with backoff while the provider is unavailable (see modelCallError). */
async function generate(settings: ModelTurnSettings, conversation: Conversation, input: TurnInput) {
  const { provider, modelId, timeoutMs, maxRetries } = settings.config;
  const { logger } = input;
  // Loaded at the first turn, as modelToolSet explains.
  const [{ generateText }, tools] = await Promise.all([import('ai'), settings.toolSet(input.handoffDescriptions)]);
  for (let retry = 0; ; retry++) {
    try {
      // One span per attempt, named and attributed by the GenAI conventions. It carries no prompt
      // and no answer: the conversation is personal data. (The AI SDK's own spans stay off: they
      // would repeat these.)
      return await withModelCall({ provider, model: modelId }, async (span) => {
        const answer = await generateText({
          model: settings.model,
          system: settings.instructions,
          messages: modelMessages(conversation),
          tools,
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(timeoutMs),
        });
        const { inputTokens, outputTokens } = answer.usage;
        recordModelResponse(span, { inputTokens, outputTokens }, answer.response.modelId);
        return answer;
      });
    } catch (thrown) {
      const error = modelCallError(thrown, timeoutMs);
      input.noteFailure(error.code);
      if (error.code !== 'MODEL_UNAVAILABLE' || retry >= maxRetries) throw error;
      const asked = error.details?.retryAfterMs;
      const delayMs =
        typeof asked === 'number'
          ? Math.min(asked, RETRY_BACKOFF.maxDelayMs)
          : backoffDelayMs(settings.retryBackoff ?? RETRY_BACKOFF, retry + 1);
      logger.warn({ code: error.code, retry: retry + 1, delayMs, err: error.message }, 'model call failed; retrying');
      await sleep(delayMs);
    }
  }
}

async function runTool(
  settings: ModelTurnSettings,
  input: TurnInput,
  call: Call,
  position: string,
  effects: PerformedEffect[],
): Promise<ToolResultEntry> {
  const answer = (output: string, isError: boolean): ToolResultEntry => ({ ...call, output, isError });
  const compiled = settings.tools.get(call.toolName);
  if (compiled === undefined) {
    const known = [...settings.tools.keys(), ...settings.handoffs.keys()].join(', ');
    return answer(`unknown tool "${call.toolName}"; the tools are: ${known}`, true);
  }
  if (call.invalid || !compiled.validate(call.input)) {
    const why = call.invalid ? 'its arguments are not JSON' : argumentErrors(compiled.validate);
    return answer(`invalid arguments for ${call.toolName}: ${why}`, true);
  }
  const { tool } = compiled;
  const args = call.input as JsonObject;
  const inputJson = JSON.stringify(args);
  const recalled = tool.effect ? settings.memo.recall(input.messageId, position, tool.name, inputJson) : undefined;
  let result: JsonValue;
  if (recalled !== undefined) {
    result = recalled;
  } else {
    try {
      result = await tool.run(args, {
        idempotencyKey: `${input.messageId}:${position}`,
        taskId: input.taskId,
        messageId: input.messageId,
        position,
        logger: input.logger,
      });
    } catch (error) {
      // A BatonError is the tool's verdict on the handling (an outage to wait out, a refusal);
      // anything else is an error the model can work around.
      if (isBatonError(error)) {
        input.noteFailure(error.code);
        throw error;
      }
      input.noteFailure(TOOL_FAILED);
      return answer(`${call.toolName} failed: ${error instanceof Error ? error.message : String(error)}`, true);
    }
    if (tool.effect)
      settings.memo.remember(input.messageId, position, { toolName: tool.name, input: inputJson, result });
  }
  if (tool.effect) {
    effects.push({ tool: tool.name, args, toolCall: { position, id: call.toolCallId, result } });
  }
  return answer(resultText(result), false);
}
