// ESLint: the one linter and formatter (`npm run lint`, part of `npm test`; zero findings).
// typescript-eslint's recommended rules, and Prettier as a rule of its own, configured here.
import eslint from '@eslint/js';
import prettierRecommended from 'eslint-plugin-prettier/recommended';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'bench/results/', '.tap/', 'services/console/dist/', 'services/console/app/api-schema.d.ts'] },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  prettierRecommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // Prettier's settings live here, not in a file of their own.
      'prettier/prettier': ['error', { printWidth: 180, singleQuote: true, trailingComma: 'all', arrowParens: 'always', semi: true }, { usePrettierrc: false }],
      // `_`-prefixed names are there to be ignored (a destructured field left out, a callback's
      // unused parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  // The console runs in the browser.
  { files: ['services/console/{app,screens,components}/**'], languageOptions: { globals: globals.browser } },
  // Test and bench code reads answers whose shape the assertions check: `any` there is deliberate.
  { files: ['test/**', 'bench/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
