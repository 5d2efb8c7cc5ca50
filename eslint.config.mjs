// Lint holds the layering: the protocol, thread, session, agents, acp and util layers never
// import `vscode`, and the webview imports only the shared message and view-model types.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only src/vscode and src/extension.ts may use the VS Code API.' }] }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      'max-lines': ['warn', { max: 450, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/vscode/**', 'src/extension.ts'],
    rules: noVscode,
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'The webview runs in a browser.' }],
        patterns: [{
          regex: '^\\.\\./(\\.\\./)*src/(?!contract/)',
          message: 'The webview may import only shared types from src/contract.',
        }],
      }],
    },
  },
);
