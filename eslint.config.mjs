import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

// Import patterns the boundary rules below share. ESLint keeps one `no-restricted-imports` per
// file (a later block replaces an earlier one's options), so each block lists all of its own.

/** The transports' shared HTTP kit lives in server/http/, not in the REST adapter (issue 19). */
const httpKitFromRest = {
  group: ['**/rest/body', '**/rest/problem', '@/server/rest/body', '@/server/rest/problem'],
  message: 'The capped body reader, media types and problem+json are the HTTP kit every transport shares: import them from server/http/.',
};
/** server/ knows no page, component or transport of app/. */
const serverNeverApp = {
  group: ['@/app', '@/app/*', '**/app/*', '@/components', '@/components/*'],
  message: 'server/ never imports app/ or components/: a verb never knows which transport called it.',
};
/** Pages and components hold no rule (server/policy.ts) and never load the proxy. */
const noProxy = {
  regex: '^(@/|(\\.\\./)+|\\./)proxy$',
  message: 'Nothing of the console imports proxy.ts: the header names it shares live in server/http/page-headers.ts.',
};
const noPolicy = {
  group: ['@/server/policy', '**/server/policy'],
  message:
    'Pages hold no rule: what a page needs comes from a verb’s answer (e.g. `actions`) or a neutral module (e.g. server/reservations/roles.ts), never server/policy.ts.',
};

export default tseslint.config(
  { ignores: ['node_modules/', '.next/', '.data/', 'db/migrations/', 'next-env.d.ts', 'test-results/', 'playwright-report/', 'demo-output/'] },
  // The SDK's generated types: openapi-typescript's output, which a test compares byte for byte.
  { ignores: ['clients/typescript/src/generated/'] },
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
    // Everywhere, before the blocks per layer (which repeat it): nothing imports the kit from REST.
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs'],
    rules: { 'no-restricted-imports': ['error', { patterns: [httpKitFromRest] }] },
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            httpKitFromRest,
            {
              group: ['@/server', '@/server/*', '**/server/*', '@/app', '@/app/*', '@/components', '@/components/*'],
              message: 'db/ imports nothing from server/, app/ or components/: hand it what it needs (see db/seed.ts SeedCredentials).',
            },
          ],
        },
      ],
    },
  },
  {
    // The domain knows no transport or page; tests may drive the route files they test.
    files: ['server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [httpKitFromRest, serverNeverApp] }],
    },
  },
  {
    // The policy states rules over shapes it declares itself: it imports no entity view (a view
    // is built from the policy's answers, so the arrow would point back up).
    files: ['server/policy.ts', 'server/policy/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            httpKitFromRest,
            serverNeverApp,
            {
              group: ['**/view', '@/server/*/view'],
              message:
                'server/policy.ts imports no entity view: declare the shape a rule judges, or import it from a neutral module (e.g. server/reservations/status.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The HTTP kit is below every transport: REST, tRPC, Auth.js's handler and the proxy import
    // it, and it imports none of them (its generator reads the route table, as a script).
    files: ['server/http/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/http/generate-methods.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            httpKitFromRest,
            serverNeverApp,
            {
              group: ['**/rest/*', '@/server/rest/*', '**/trpc/*', '@/server/trpc/*', '**/auth/*', '@/server/auth/*', '@/proxy', '**/proxy'],
              message: 'server/http/ is the kit the transports share: it imports no transport (REST, tRPC, Auth.js, the proxy) and no route table.',
            },
          ],
        },
      ],
    },
  },
  {
    // The proxy runs in front of every request, pages included: its 405s come from the generated
    // method map (server/http/methods.generated.ts), never the route table, which loads every verb.
    files: ['proxy.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            httpKitFromRest,
            {
              group: ['@/server/rest', '@/server/rest/*', '**/server/rest/*', './server/rest/*'],
              message: 'proxy.ts imports no REST adapter or route table (it would load every verb): use server/http/ (allowAt, the generated method map).',
            },
          ],
        },
      ],
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
          selector:
            "CallExpression[callee.name=/^(eq|ne|inArray|notInArray)$/] > MemberExpression[property.name='orgId'][object.name=/^(ctx|lctx|principal)$/]",
          message: 'Visibility SQL lives in server/policy.ts: add or reuse a rule there.',
        },
        {
          selector: 'ImportSpecifier[imported.name=/^(arrayContains|arrayOverlaps|arrayContained)$/]',
          message: 'Org-id array tests are visibility rules: they live in server/policy.ts.',
        },
      ],
    },
  },
  {
    // Arrows point one way (docs/architecture.md): pages and routes never touch db/, hold no
    // rule (server/policy.ts) and never load the proxy …
    files: ['app/**/*.ts', 'app/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [httpKitFromRest, { group: ['@/db', '@/db/*', '**/db/*'], message: 'Only server/ talks to the database; call a verb.' }, noPolicy, noProxy],
        },
      ],
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
            httpKitFromRest,
            noProxy,
            { group: ['@/db', '@/db/*', '**/db/*'], message: 'Only server/ talks to the database; call a verb through tRPC.' },
            { group: ['@/app', '@/app/*', '**/app/*'], message: 'components/ never import app/: pass what they need as props.' },
            {
              // server/console-actions.ts is a vocabulary (the ids components register under), no rule or verb;
              // server/openapi/redoc-options.ts is what the reference's server rendering and its hydration
              // in the browser must share (Redoc's options, the history added to the document), pure.
              regex: '^@/server/(?!trpc/(root|query-client|shared)$|console-actions$|openapi/redoc-options$)',
              message: 'Components take their types from RouterOutputs (components/trpc-types.ts), not server modules.',
            },
          ],
        },
      ],
    },
  },
);
