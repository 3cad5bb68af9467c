import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isBatonError } from '@baton/errors';
import { loadModelConfig } from './model-config.js';

/** A folder for the test's key file, removed when the test ends. */
function keyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'model-key-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function failure(env: Record<string, string>): unknown {
  try {
    loadModelConfig(env);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('loadModelConfig', () => {
  it('is undefined without BATON_MODEL: the agents decide by their rules', () => {
    expect(loadModelConfig({})).toBeUndefined();
    expect(loadModelConfig({ BATON_MODEL: '' })).toBeUndefined();
  });

  it('reads the provider, the model id, the base URL and the bounds', () => {
    expect(
      loadModelConfig({
        BATON_MODEL: 'openai-compatible:llama3.2',
        BATON_MODEL_BASE_URL: 'http://localhost:11434/v1',
        BATON_MODEL_TIMEOUT_MS: '2000',
        BATON_MODEL_MAX_RETRIES: '0',
        BATON_MODEL_MAX_STEPS: '4',
      }),
    ).toEqual({
      provider: 'openai-compatible',
      modelId: 'llama3.2',
      baseUrl: 'http://localhost:11434/v1',
      timeoutMs: 2000,
      maxRetries: 0,
      maxSteps: 4,
    });
    expect(loadModelConfig({ BATON_MODEL: 'openai:gpt-4o-mini' })).toEqual({
      provider: 'openai',
      modelId: 'gpt-4o-mini',
      timeoutMs: 60_000,
      maxRetries: 3,
      maxSteps: 10,
    });
  });

  it('reads the API key from a file, as Kubernetes mounts a secret', () => {
    const file = join(keyDir(), 'api-key');
    writeFileSync(file, 'sk-test-secret\n');
    expect(
      loadModelConfig({ BATON_MODEL: 'anthropic:claude-sonnet-4-5', BATON_MODEL_API_KEY_FILE: file })?.apiKey,
    ).toBe('sk-test-secret');
  });

  it('reads an empty key file as no key, as compose mounts one for every model agent', () => {
    const file = join(keyDir(), 'none');
    writeFileSync(file, '');
    expect(loadModelConfig({ BATON_MODEL: 'openai:gpt-4o-mini', BATON_MODEL_API_KEY_FILE: file })).not.toHaveProperty(
      'apiKey',
    );
  });

  it.each([
    [{ BATON_MODEL: 'gpt-4o-mini' }, '/env/BATON_MODEL'],
    [{ BATON_MODEL: 'bedrock:titan' }, '/env/BATON_MODEL'],
    [{ BATON_MODEL: 'openai:' }, '/env/BATON_MODEL'],
    [{ BATON_MODEL: 'openai-compatible:llama3.2' }, '/env/BATON_MODEL_BASE_URL'],
    [{ BATON_MODEL: 'openai:gpt-4o', BATON_MODEL_BASE_URL: 'not a url' }, '/env/BATON_MODEL_BASE_URL'],
    [{ BATON_MODEL: 'openai:gpt-4o', BATON_MODEL_MAX_STEPS: '0' }, '/env/BATON_MODEL_MAX_STEPS'],
  ])('refuses %o with CONFIG_INVALID at %s', (env, path) => {
    const error = failure(env);
    expect(isBatonError(error) && [error.code, error.path]).toEqual(['CONFIG_INVALID', path]);
  });

  it('never quotes the key in an error', () => {
    const error = failure({
      BATON_MODEL: 'openai:gpt-4o',
      BATON_MODEL_API_KEY: 'sk-live-1',
      BATON_MODEL_API_KEY_FILE: '/x',
    });
    expect(isBatonError(error) && error.code).toBe('CONFIG_INVALID');
    expect(String((error as Error).message)).not.toContain('sk-live-1');
  });
});
