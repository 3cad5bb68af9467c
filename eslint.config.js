import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const LIB_THROUGH_INDEX = {
  group: ['@baton/*/src/*', '@baton/*/src'],
  message: 'Import a lib through its index (its package name).',
};
const SERVICES_APART = {
  group: ['**/services/*'],
  message: 'Services talk through Kafka topics, never by importing each other.',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'infra/**/target/**', '.baton/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [LIB_THROUGH_INDEX, SERVICES_APART],
          paths: [{ name: 'kafkajs', message: 'Only @baton/kafka imports kafkajs, so the client can be replaced.' }],
        },
      ],
    },
  },
  {
    // The gateway's console page: TypeScript run by the browser, bundled by the gateway.
    files: ['services/gateway/ui/src/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  {
    // Preloaded into Node processes by the bench (bench/cpu-profile.mjs): plain ES modules run by Node.
    files: ['bench/**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },
  {
    files: ['libs/kafka/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [LIB_THROUGH_INDEX] }],
    },
  },
  {
    // Not packages of the product: the bench's kafkajs baseline (its relays, and what measures
    // arrivals), and tests acting as a user's own Kafka client, take raw kafkajs from these two files
    // alone, which load @baton/kafka first so kafkajs is the fixed one (see each file's comment).
    files: ['bench/raw-kafkajs.ts', 'test/helpers/raw-kafkajs.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [LIB_THROUGH_INDEX, SERVICES_APART] }],
    },
  },
);
