import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe on what the page shows now (issue 23, docs/product.md §8 R7): every rule axe runs by
 * default, on the whole page — this helper takes no `disableRules` and no `exclude`, on
 * purpose, so that no test can quietly narrow what "zero violations" means. Fails with one line
 * per violating node: rule, impact, target, and axe's summary of what to fix.
 * @param what names the page or dialog in the failure.
 */
export async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const lines = violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact ?? 'n/a'}) ${n.target.join(' ')}: ${n.failureSummary?.replaceAll('\n', ' ') ?? v.help}`),
  );
  // Soft: one run lists every page's violations, not only the first page's.
  expect.soft(lines, `axe on ${what}`).toEqual([]);
}
