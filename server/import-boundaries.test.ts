/**
 * The boundary rules of eslint.config.mjs fire where docs/architecture.md says the arrows stop
 * (issue 19's five arrows among them): each case lints one import as if written in one file, and
 * expects `no-restricted-imports` to refuse it — or, for the arrows that are allowed, to let it
 * pass. A rule that stopped matching (a pattern mistyped, a block overriding another's options)
 * fails here rather than letting the arrow come back unseen.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The `no-restricted-imports` messages for `source` linted as `file`. */
async function refusals(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const importOf = (specifier: string) => `import { x } from '${specifier}';\nexport const y = x;\n`;

const refused: [file: string, specifier: string, why: RegExp][] = [
  ['app/(console)/capacity/page.tsx', '@/server/policy', /Pages hold no rule/],
  ['app/v1/nodes/route.ts', '../../../server/policy', /Pages hold no rule/],
  ['app/(console)/layout.tsx', '@/proxy', /imports proxy\.ts/],
  ['app/(console)/nodes/page.tsx', '../../../proxy', /imports proxy\.ts/],
  ['components/node/unit-panel.tsx', '@/proxy', /imports proxy\.ts/],
  ['server/policy.ts', './reservations/view', /imports no entity view/],
  ['server/policy.ts', '@/server/vms/view', /imports no entity view/],
  ['proxy.ts', '@/server/rest/routes', /imports no REST adapter or route table/],
  ['proxy.ts', './server/rest/route', /imports no REST adapter or route table/],
  ['server/trpc/http-handler.ts', '../rest/body', /HTTP kit/],
  ['server/auth/http.ts', '@/server/rest/problem', /HTTP kit/],
  ['server/trpc/hostile-input.test.ts', '../rest/body', /HTTP kit/],
  ['scripts/bench.ts', '../server/rest/problem', /HTTP kit/],
  ['proxy.ts', '@/server/rest/body', /HTTP kit/],
  ['server/http/allow-at.ts', '../rest/routes', /imports no transport/],
  ['server/http/problem.ts', '../trpc/init', /imports no transport/],
  // The rules that were there before, still firing beside the new ones.
  ['app/(console)/page.tsx', '@/db/client', /Only server\/ talks to the database/],
  ['server/policy.ts', '@/app/actions', /server\/ never imports app\//],
  ['server/http/body.ts', '@/components/queries', /server\/ never imports app\//],
  ['components/fleet/fleet.tsx', '@/server/policy', /Components take their types from RouterOutputs/],
];

const allowed: [file: string, specifier: string][] = [
  ['app/(console)/capacity/page.tsx', '@/server/reservations/roles'],
  ['app/(console)/layout.tsx', '@/server/http/page-headers'],
  ['server/policy.ts', './reservations/status'],
  ['proxy.ts', '@/server/http/allow-at'],
  ['server/rest/route.ts', '../http/problem'],
  ['server/auth/http.ts', '../http/body'],
  ['server/http/generate-methods.ts', '../rest/route-spec'],
];

describe('the import boundaries (eslint.config.mjs)', () => {
  it.each(refused)('%s may not import %s', async (file, specifier, why) => {
    const messages = await refusals(file, importOf(specifier));
    expect(
      messages.filter((m) => why.test(m)),
      `${file} → ${specifier}: ${messages.join(' | ')}`,
    ).toHaveLength(1);
  });

  it.each(allowed)('%s may import %s', async (file, specifier) => {
    expect(await refusals(file, importOf(specifier))).toEqual([]);
  });
});
