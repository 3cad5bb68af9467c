import { configInvalid, optionalSetting, secretSetting, type Env } from '@baton/errors';
import { integerSetting } from '@baton/runtime';

/** The providers BATON_MODEL may name, each through its Vercel AI SDK package. */
export const MODEL_PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** The language model behind an agent, and how its calls are bounded. */
export interface ModelConfig {
  provider: ModelProvider;
  /** The provider's model id: gpt-4o-mini, claude-sonnet-4-5, llama3.2 ... */
  modelId: string;
  /** The provider's API base URL; required for openai-compatible (Ollama: http://localhost:11434/v1). */
  baseUrl?: string;
  /**
   * BATON_MODEL_API_KEY or the file BATON_MODEL_API_KEY_FILE names (an empty file: none); else the
   * provider's own variable.
   */
  apiKey?: string;
  /** One model call's deadline. */
  timeoutMs: number;
  /** Retries of one model call that failed on a rate limit, a timeout or a server error. */
  maxRetries: number;
  /** Model calls in one handling before it is dead-lettered with MODEL_STEP_LIMIT. */
  maxSteps: number;
}

export const MODEL_VARIABLE = 'BATON_MODEL';

function isProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}

/**
 * The model configuration, or undefined when BATON_MODEL is unset (the agents then decide by
 * their rules, offline). BATON_MODEL is `<provider>:<model id>`, e.g. `openai:gpt-4o-mini`,
 * `anthropic:claude-sonnet-4-5` or `openai-compatible:llama3.2` with BATON_MODEL_BASE_URL. A bad
 * value is CONFIG_INVALID naming the variable; no message quotes the key.
 */
export function loadModelConfig(env: Env = process.env): Readonly<ModelConfig> | undefined {
  const model = optionalSetting(env, MODEL_VARIABLE)?.trim();
  if (model === undefined || model === '') return undefined;
  const separator = model.indexOf(':');
  const provider = separator < 0 ? '' : model.slice(0, separator);
  const modelId = model.slice(separator + 1).trim();
  if (!isProvider(provider) || modelId === '') {
    throw configInvalid(
      MODEL_VARIABLE,
      `${MODEL_VARIABLE} must be <provider>:<model id> with a provider of ${MODEL_PROVIDERS.join(', ')}, not "${model}"`,
    );
  }
  const baseUrl = optionalSetting(env, 'BATON_MODEL_BASE_URL')?.trim();
  if (baseUrl !== undefined && !URL.canParse(baseUrl)) {
    throw configInvalid('BATON_MODEL_BASE_URL', 'BATON_MODEL_BASE_URL must be a URL');
  }
  if (provider === 'openai-compatible' && baseUrl === undefined) {
    throw configInvalid('BATON_MODEL_BASE_URL', 'an openai-compatible model needs BATON_MODEL_BASE_URL');
  }
  // An empty key file is no key: how a deployment that mounts the file for every agent says none.
  const apiKey = secretSetting(env, 'BATON_MODEL_API_KEY') || undefined;
  return Object.freeze({
    provider,
    modelId,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(apiKey === undefined ? {} : { apiKey }),
    timeoutMs: integerSetting(env, 'BATON_MODEL_TIMEOUT_MS', 60_000),
    maxRetries: integerSetting(env, 'BATON_MODEL_MAX_RETRIES', 3, 0, 20),
    maxSteps: integerSetting(env, 'BATON_MODEL_MAX_STEPS', 10, 1, 100),
  });
}
