import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['node_modules/', '.next/', '.data/', 'db/migrations/', 'next-env.d.ts', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['components/**/*.tsx', 'app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Arrows point one way (docs/architecture.md): app → server → db. db/ is the bottom layer.
    files: ['db/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/server', '@/server/*', '**/server/*', '@/app', '@/app/*', '@/components', '@/components/*'], message: 'db/ imports nothing from server/, app/ or components/: hand it what it needs (see db/seed.ts SeedCredentials).' }] }],
    },
  },
  {
    // The domain knows no transport or page; tests may drive the route files they test.
    files: ['server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/app', '@/app/*', '**/app/*', '@/components', '@/components/*'], message: 'server/ never imports app/ or components/: a verb never knows which transport called it.' }] }],
    },
  },
  {
    // One statement of each visibility rule (server/policy.ts): nowhere else may a query
    // compare a column with the acting org, or test org-id arrays.
    files: ['server/**/*.ts'],
    ignores: ['server/policy.ts', '**/*.test.ts', 'server/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "TaggedTemplateExpression[tag.name='sql'] MemberExpression[property.name='orgId'][object.name=/^(ctx|lctx|principal)$/]",
          message: 'Visibility SQL lives in server/policy.ts: add or reuse a rule there.',
        },
        {
          selector: "CallExpression[callee.name=/^(eq|ne|inArray|notInArray)$/] > MemberExpression[property.name='orgId'][object.name=/^(ctx|lctx|principal)$/]",
          message: 'Visibility SQL lives in server/policy.ts: add or reuse a rule there.',
        },
        {
          selector: "ImportSpecifier[imported.name=/^(arrayContains|arrayOverlaps|arrayContained)$/]",
          message: 'Org-id array tests are visibility rules: they live in server/policy.ts.',
        },
      ],
    },
  },
  {
    // Arrows point one way (docs/architecture.md): pages and routes never touch db/ …
    files: ['app/**/*.ts', 'app/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/db', '@/db/*', '**/db/*'], message: 'Only server/ talks to the database; call a verb.' }] }],
    },
  },
  {
    // … and components know the API only through tRPC: its router's types (components/trpc-types.ts)
    // and the shared QueryClient factory — never a page, the database or a server module.
    files: ['components/**/*.ts', 'components/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/db', '@/db/*', '**/db/*'], message: 'Only server/ talks to the database; call a verb through tRPC.' },
            { group: ['@/app', '@/app/*', '**/app/*'], message: 'components/ never import app/: pass what they need as props.' },
            { regex: '^@/server/(?!trpc/(root|query-client|shared)$)', message: 'Components take their types from RouterOutputs (components/trpc-types.ts), not server modules.' },
          ],
        },
      ],
    },
  },
);
