import { describe, expect, it } from 'vitest';
import { createLogger } from '@baton/runtime';
import { defineAgent } from '@baton/agent-sdk';
import { languageModel, modelAgentFromEnv } from './language-model.js';
import { loadModelConfig } from './model-config.js';

const bounds = { timeoutMs: 1000, maxRetries: 0, maxSteps: 3 };

describe('languageModel', () => {
  it.each([
    ['openai', 'gpt-4o-mini', 'openai.responses'],
    ['anthropic', 'claude-sonnet-4-5', 'anthropic.messages'],
    ['openai-compatible', 'llama3.2', 'openai-compatible.chat'],
  ] as const)('makes a %s model through its AI SDK package', async (provider, modelId, providerId) => {
    const model = await languageModel({ provider, modelId, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', ...bounds });
    expect(typeof model === 'object' && [model.provider, model.modelId]).toEqual([providerId, modelId]);
  });
});

describe('modelAgentFromEnv', () => {
  const rules = defineAgent({ id: 'triage_agent', handlers: {} });

  it('is undefined without BATON_MODEL, for the agent to keep its rules', async () => {
    expect(await modelAgentFromEnv(() => rules, createLogger('test', 'silent'), {})).toBeUndefined();
  });

  it('builds the agent on the configured model and logs which one, without the key', async () => {
    const lines: string[] = [];
    const logger = createLogger('test', 'info', { write: (line: string) => lines.push(line) });
    const env = {
      BATON_MODEL: 'openai-compatible:llama3.2',
      BATON_MODEL_BASE_URL: 'http://ollama.internal:11434/v1',
      BATON_MODEL_API_KEY: 'sk-never-logged',
    };
    let given: unknown;
    const agent = await modelAgentFromEnv(
      (model) => {
        given = model;
        return rules;
      },
      logger,
      env,
    );
    expect(agent).toBe(rules);
    expect(given).toMatchObject({ config: loadModelConfig(env), model: { modelId: 'llama3.2' } });
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        event: 'model.configured',
        provider: 'openai-compatible',
        model: 'llama3.2',
        server: 'http://ollama.internal:11434/v1',
      }),
    ]);
    expect(lines.join('')).not.toContain('sk-never-logged');
  });
});
