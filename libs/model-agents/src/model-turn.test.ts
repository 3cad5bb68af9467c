import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
} from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { isBatonError } from '@baton/errors';
import { createLogger } from '@baton/runtime';
import { chatEntry, TOOL_CALL, TOOL_RESULT, type Conversation } from './conversation.js';
import { compileTools, handoffToolName, modelToolSet, type ModelHandoffTarget, type ModelTool } from './model-tool.js';
import { runModelTurn, type ModelTurnSettings, type TurnInput } from './model-turn.js';
import { ToolCallMemo } from './tool-call-memo.js';

const AT = new Date('2026-11-24T10:00:00.000Z');

function answer(...content: LanguageModelV3Content[]): LanguageModelV3GenerateResult {
  const calls = content.some((part) => part.type === 'tool-call');
  return {
    content,
    finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    },
    warnings: [],
  };
}

const text = (value: string): LanguageModelV3Content => ({ type: 'text', text: value });
const call = (toolCallId: string, toolName: string, input: unknown): LanguageModelV3Content => ({
  type: 'tool-call',
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});

/** A model that gives `answers` in turn and records what each call was sent. */
function scriptedModel(answers: (LanguageModelV3GenerateResult | Error)[]) {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      const next = answers.shift();
      if (next === undefined) throw new Error('the script has no more answers');
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { model, calls };
}

function refundTools(runs: { refunds: number }) {
  const tools: ModelTool[] = [
    {
      name: 'look_up_item',
      description: 'Use to find item ID.',
      parameters: { type: 'object', properties: { search_query: { type: 'string' } }, required: ['search_query'] },
      run: () => 'item_132612938',
    },
    {
      name: 'execute_refund',
      description: 'Refunds an item.',
      parameters: {
        type: 'object',
        properties: { item_id: { type: 'string' }, reason: { type: 'string' } },
        required: ['item_id'],
      },
      effect: true,
      run: () => {
        runs.refunds += 1;
        return 'success';
      },
    },
  ];
  return tools;
}

const TRIAGE: ModelHandoffTarget = {
  to: 'triage_agent',
  description: 'Call this for anything else.',
  tool: 'transfer_back_to_triage',
};

function settingsFor(
  model: MockLanguageModelV3,
  tools: ModelTool[],
  handoffs: ModelHandoffTarget[] = [TRIAGE],
  memo = new ToolCallMemo(),
  maxSteps = 5,
): ModelTurnSettings {
  return {
    agentId: 'issues_and_repairs_agent',
    instructions: 'You are a customer support agent for ACME Inc.',
    model,
    config: { provider: 'openai-compatible', modelId: 'scripted', timeoutMs: 5_000, maxRetries: 2, maxSteps },
    tools: compileTools(tools),
    handoffs: new Map(handoffs.map((target) => [handoffToolName(target), target])),
    toolSet: (descriptions) => modelToolSet(tools, handoffs, descriptions),
    memo,
    now: () => AT,
    retryBackoff: { initialDelayMs: 1, maxDelayMs: 2, multiplier: 2 },
  };
}

function inputFor(
  conversation: Conversation,
  refusal: TurnInput['refusal'] = () => undefined,
  failures: string[] = [],
): TurnInput {
  return {
    messageId: 'msg-1',
    taskId: 'task-1',
    conversation,
    handoffDescriptions: new Map(),
    refusal,
    logger: createLogger('model-turn-test', 'silent'),
    noteFailure: (code) => failures.push(code),
  };
}

const customerAsks = (): Conversation => [chatEntry('user', 'The shoes are too small, I want a refund', AT)];

describe('runModelTurn', () => {
  it('runs look_up_item then execute_refund and replies, with every call and result in the conversation', async () => {
    const runs = { refunds: 0 };
    const { model, calls } = scriptedModel([
      answer(call('c1', 'look_up_item', { search_query: 'shoes' })),
      answer(call('c2', 'execute_refund', { item_id: 'item_132612938', reason: 'too small' })),
      answer(text('Your refund has been processed.')),
    ]);
    const turn = await runModelTurn(settingsFor(model, refundTools(runs)), inputFor(customerAsks()));

    expect(turn.end).toEqual({ kind: 'reply', text: 'Your refund has been processed.' });
    expect(runs.refunds).toBe(1);
    expect(turn.effects).toEqual([
      {
        tool: 'execute_refund',
        args: { item_id: 'item_132612938', reason: 'too small' },
        toolCall: { position: '1.0', id: 'c2', result: 'success' },
      },
    ]);
    expect(turn.conversation.map((entry) => [entry.type, entry.content])).toEqual([
      ['CHAT_MESSAGE', 'The shoes are too small, I want a refund'],
      [TOOL_CALL, '{"search_query":"shoes"}'],
      [TOOL_RESULT, 'item_132612938'],
      [TOOL_CALL, '{"item_id":"item_132612938","reason":"too small"}'],
      [TOOL_RESULT, 'success'],
      ['CHAT_MESSAGE', 'Your refund has been processed.'],
    ]);
    // The third model call saw both tool exchanges, after the system message.
    expect(calls[2]?.prompt.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(calls[0]?.tools?.map((tool) => tool.name)).toEqual([
      'look_up_item',
      'execute_refund',
      'transfer_back_to_triage',
    ]);
  });

  it('ends the turn at a handoff tool, its result telling the next agent to take over', async () => {
    const { model } = scriptedModel([answer(call('c1', 'transfer_back_to_triage', {}))]);
    const turn = await runModelTurn(settingsFor(model, []), inputFor(customerAsks()));
    expect(turn.end).toEqual({ kind: 'handoff', target: TRIAGE });
    expect(turn.conversation.at(-1)).toMatchObject({
      type: TOOL_RESULT,
      sender: 'issues_and_repairs_agent',
      content: 'Transferred to triage_agent. Adopt persona immediately.',
      tool_name: 'transfer_back_to_triage',
      tool_call_id: 'c1',
      is_error: false,
    });
  });

  it('answers a refused handoff as a tool error and lets the model go on', async () => {
    const { model, calls } = scriptedModel([
      answer(call('c1', 'transfer_back_to_triage', {})),
      answer(text('What is your customer number?')),
    ]);
    const turn = await runModelTurn(
      settingsFor(model, []),
      inputFor(customerAsks(), () => 'identity unknown'),
    );
    expect(turn.end).toEqual({ kind: 'reply', text: 'What is your customer number?' });
    expect(calls[1]?.prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', output: { type: 'error-text', value: 'identity unknown' } }],
    });
  });

  it('returns an unknown tool and arguments that break the parameters to the model as tool errors', async () => {
    const runs = { refunds: 0 };
    const { model, calls } = scriptedModel([
      answer(call('c1', 'cancel_order', { order: 7 }), call('c2', 'execute_refund', { reason: 'too small' })),
      answer(text('Which item should be refunded?')),
    ]);
    const turn = await runModelTurn(settingsFor(model, refundTools(runs)), inputFor(customerAsks()));
    expect(runs.refunds).toBe(0);
    expect(turn.effects).toEqual([]);
    expect(calls[1]?.prompt.at(-1)).toEqual({
      role: 'tool',
      content: [
        expect.objectContaining({
          toolCallId: 'c1',
          output: {
            type: 'error-text',
            value: 'unknown tool "cancel_order"; the tools are: look_up_item, execute_refund, transfer_back_to_triage',
          },
        }),
        expect.objectContaining({
          toolCallId: 'c2',
          output: {
            type: 'error-text',
            value: "invalid arguments for execute_refund: / must have required property 'item_id'",
          },
        }),
      ],
    });
  });

  it('fails with MODEL_STEP_LIMIT when the model keeps calling tools', async () => {
    const lookUp = answer(call('c', 'look_up_item', { search_query: 'shoes' }));
    const { model, calls } = scriptedModel([lookUp, lookUp, lookUp]);
    const failure = await runModelTurn(
      settingsFor(model, refundTools({ refunds: 0 }), [], undefined, 3),
      inputFor(customerAsks()),
    ).catch((error: unknown) => error);
    expect(isBatonError(failure) && failure.code).toBe('MODEL_STEP_LIMIT');
    expect(calls).toHaveLength(3);
  });

  it('gives a handoff handled again the recorded result of its effect, without running the tool twice', async () => {
    const runs = { refunds: 0 };
    const memo = new ToolCallMemo();
    const script = () => [
      answer(call('c1', 'execute_refund', { item_id: 'item_132612938' })),
      answer(text('Refunded.')),
    ];
    const first = await runModelTurn(
      settingsFor(scriptedModel(script()).model, refundTools(runs), [], memo),
      inputFor(customerAsks()),
    );
    const again = await runModelTurn(
      settingsFor(scriptedModel(script()).model, refundTools(runs), [], memo),
      inputFor(customerAsks()),
    );
    expect(runs.refunds).toBe(1);
    expect(again.effects).toEqual(first.effects);
  });

  it('retries a rate-limited model call, then gives up with MODEL_UNAVAILABLE', async () => {
    const limited = () =>
      new APICallError({
        message: 'Too Many Requests',
        url: 'http://model.test/v1/chat/completions',
        requestBodyValues: {},
        statusCode: 429,
        responseHeaders: { 'retry-after-ms': '1' },
        isRetryable: true,
      });
    const recovered = scriptedModel([limited(), limited(), answer(text('Hello'))]);
    const noted: string[] = [];
    const turn = await runModelTurn(settingsFor(recovered.model, []), inputFor(customerAsks(), undefined, noted));
    expect(turn.end).toEqual({ kind: 'reply', text: 'Hello' });
    expect(recovered.calls).toHaveLength(3);
    // Each failed call is told, for the agent's heartbeats to carry to the overview.
    expect(noted).toEqual(['MODEL_UNAVAILABLE', 'MODEL_UNAVAILABLE']);

    const down = scriptedModel([limited(), limited(), limited()]);
    noted.length = 0;
    const failure = await runModelTurn(settingsFor(down.model, []), inputFor(customerAsks(), undefined, noted)).catch(
      (error: unknown) => error,
    );
    expect(isBatonError(failure) && [failure.code, failure.retriable]).toEqual(['MODEL_UNAVAILABLE', true]);
    expect(down.calls).toHaveLength(3);
    expect(noted).toEqual(['MODEL_UNAVAILABLE', 'MODEL_UNAVAILABLE', 'MODEL_UNAVAILABLE']);
  });

  it('tells of a tool that throws as TOOL_FAILED, and answers the model with the failure', async () => {
    const broken: ModelTool = {
      name: 'look_up_item',
      description: 'Finds an item.',
      parameters: { type: 'object', properties: { search_query: { type: 'string' } }, required: ['search_query'] },
      run: () => {
        throw new Error('the catalogue is down');
      },
    };
    const { model } = scriptedModel([
      answer(call('c1', 'look_up_item', { search_query: 'shoes' })),
      answer(text('I cannot look that up right now.')),
    ]);
    const noted: string[] = [];
    const turn = await runModelTurn(settingsFor(model, [broken]), inputFor(customerAsks(), undefined, noted));
    expect(turn.end).toEqual({ kind: 'reply', text: 'I cannot look that up right now.' });
    expect(noted).toEqual(['TOOL_FAILED']);
  });
});
