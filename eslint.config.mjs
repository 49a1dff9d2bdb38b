// typescript-eslint with a small rule set (in `npm run lint`); formatting is Prettier's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '**/*.generated.ts', 'test-results/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommended],
    rules: {
      // A leading underscore says "deliberately unused" (a destructured field left out, an argument a signature needs).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' }],
    },
  },
  {
    // Libraries loaded on their first use, not with the window: `require` is the point here.
    files: ['src/core/lazyLibraries.ts', 'src/core/connection/startAttempt.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests and fixtures drive editors, inspectors and deliberately malformed servers.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
