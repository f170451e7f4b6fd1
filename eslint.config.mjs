import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.next/', '.data/', 'db/migrations/', 'next-env.d.ts', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/db/*', '@/db'], importNames: [], message: 'only server/ and db/ talk to the database' }] }],
    },
  },
  {
    files: ['server/**', 'db/**', 'scripts/**', 'e2e/**', '**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
