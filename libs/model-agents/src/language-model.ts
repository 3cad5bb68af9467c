import type { LanguageModel } from 'ai';
import type { AgentDefinition } from '@baton/agent-sdk';
import type { Env } from '@baton/errors';
import type { Logger } from '@baton/runtime';
import { loadModelConfig, type ModelConfig } from './model-config.js';

/**
 * The configured provider's model. Each provider's package is imported only when it is the one
 * configured, so an agent loads no provider it does not use. Without a key in the configuration
 * the OpenAI and Anthropic packages read their own variables (OPENAI_API_KEY, ANTHROPIC_API_KEY);
 * an OpenAI-compatible server (Ollama, vLLM, LM Studio) often needs none.
 */
export async function languageModel(config: Readonly<ModelConfig>): Promise<LanguageModel> {
  const { apiKey, baseUrl: baseURL, modelId } = config;
  const credentials = { ...(apiKey === undefined ? {} : { apiKey }), ...(baseURL === undefined ? {} : { baseURL }) };
  switch (config.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI(credentials)(modelId);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic(credentials)(modelId);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      // loadModelConfig requires the base URL of an openai-compatible model.
      return createOpenAICompatible({ name: 'openai-compatible', baseURL: baseURL ?? '', ...credentials }).chatModel(
        modelId,
      );
    }
  }
}

/** A configured model and the bounds of its calls. */
export interface ConfiguredModel {
  model: LanguageModel;
  config: Readonly<ModelConfig>;
}

/**
 * The agent `make` builds on the model BATON_MODEL configures, or undefined when none is, for the
 * agent to fall back on its rules. The log line names the provider, the model and the server,
 * never the key (nor credentials in the URL).
 */
export async function modelAgentFromEnv(
  make: (model: ConfiguredModel) => AgentDefinition,
  logger: Logger,
  env: Env = process.env,
): Promise<AgentDefinition | undefined> {
  const config = loadModelConfig(env);
  if (config === undefined) return undefined;
  const server = config.baseUrl === undefined ? undefined : new URL(config.baseUrl);
  logger.info(
    {
      event: 'model.configured',
      provider: config.provider,
      model: config.modelId,
      ...(server === undefined ? {} : { server: `${server.origin}${server.pathname}` }),
    },
    'decides with a language model',
  );
  return make({ model: await languageModel(config), config });
}
