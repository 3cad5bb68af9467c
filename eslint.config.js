import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
          patterns: [
            {
              group: ['@baton/*/src/*', '@baton/*/src'],
              message: 'Import a lib through its index (its package name).',
            },
            { group: ['**/services/*'], message: 'Services talk through Kafka topics, never by importing each other.' },
          ],
          paths: [{ name: 'kafkajs', message: 'Only @baton/kafka imports kafkajs, so the client can be replaced.' }],
        },
      ],
    },
  },
  {
    // The gateway's web page: a plain ES module run by the browser.
    files: ['services/gateway/ui/**/*.js'],
    languageOptions: { sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['libs/kafka/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@baton/*/src/*'], message: 'Import a lib through its index (its package name).' }] },
      ],
    },
  },
);
