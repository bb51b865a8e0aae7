import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.artifacts/**', 'data/**', 'test/fixtures/**', 'custom-elements.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Browser tests: mocha globals, chai's `expect(x).to.exist` style.
    files: ['test/element/**'],
    languageOptions: { globals: { ...globals.mocha } },
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    // The browser bundle must never pull in server or gateway code (DESIGN §1).
    files: ['src/element/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/gateway/**', '**/localnet/**', 'node:*'] }],
    },
  },
  {
    // Core is shared by browser and Node: no platform imports.
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', '**/element/**', '**/server/**', '**/gateway/**', '**/localnet/**'] }],
    },
  },
  {
    // The server SDK must never import element code.
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/element/**', '**/gateway/**', '**/localnet/**', 'lit', 'lit/*'] }],
    },
  },
);
