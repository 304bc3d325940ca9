// ESLint (flat config): @eslint/js's recommended rules over every JS file of the repository.
// Formatting is Prettier's job (.prettierrc.json); `npm run lint` runs both, and `npm test` runs it.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: ['dist/**', 'build*/**', 'web/wasm/**', '.deps/**', 'node_modules/**', 'tests/artifacts/**', 'test-results/**'],
  },
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node, ...globals.worker },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Control characters in patterns are the point where they appear: the CLI shows them as
      // Control Pictures, the tests check XML's forbidden ones, the test report strips ANSI colours.
      'no-control-regex': 'off',
    },
  },
];
