import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe';

// docs/product.md §5 "The reference" and "Revisions and the changelog": /docs/api and its
// changelog render signed out in Chromium, under the console's Content-Security-Policy, and
// no request leaves the site.

/** Every request the page makes, and every CSP violation it reports (the event, and console errors naming the policy). */
async function watch(page: Page): Promise<{ requests: string[]; csp: () => Promise<string[]> }> {
  const requests: string[] = [];
  const fromConsole: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) fromConsole.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return {
    requests,
    csp: async () => [...((await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp)) ?? []), ...fromConsole],
  };
}

/** Requests to any host but this server's: `data:`/`blob:` never leave the page, anything else must be 127.0.0.1. */
const offSite = (urls: string[]) => urls.filter((u) => !/^(data|blob):/.test(u) && new URL(u).hostname !== '127.0.0.1');

test('the API reference renders signed out, every operation with its limits, problem codes and examples, the reclaim with its history; nothing leaves the site, no CSP violation', async ({
  page,
}) => {
  test.setTimeout(120_000); // a page of every operation, on a shared machine
  const seen = await watch(page);
  const res = await page.goto('/docs/api');
  expect(res!.status()).toBe(200);
  expect(page.url()).toMatch(/\/docs\/api$/); // not sent to sign-in
  expect(res!.headers()['content-security-policy']).toContain("'strict-dynamic'");
  await expect(page.getByRole('heading', { level: 1, name: 'GPU Reservations API' })).toBeVisible();

  const doc = (await (await page.request.get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
  const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
  for (const id of ids) await expect(page.locator(`section#${id}`), id).toHaveCount(1);

  const reclaim = page.locator('section#reclaimUnits');
  await expect(reclaim.getByText('POST /v1/nodes/{nodeId}/reservations/{id}/reclaim')).toBeVisible();
  await expect(reclaim.getByText('Report which spot workloads would be terminated', { exact: false })).toBeVisible();
  await expect(reclaim.getByText('1–1024 items', { exact: false }).first()).toBeVisible();
  await expect(reclaim.getByRole('link', { name: 'eviction_set_changed' })).toHaveAttribute('href', '/problems/eviction_set_changed');
  await expect(reclaim.getByText('Example request: A dry run: what the reclaim would terminate')).toBeVisible();
  const changes = reclaim.getByRole('region', { name: 'Changes' });
  // Revision 2 (issue 28's scopes) added the 403's `scope` to every answer: the reclaim's too.
  await expect(changes).toContainText(/Changed in \d+ of the \d+ revisions? of this API; present since revision 1 \(1\.0\.0/);
  await changes.getByRole('link', { name: /revision 1/ }).click();
  await expect(page).toHaveURL(/\/docs\/api\/changelog#revision-1$/, { timeout: 30_000 }); // a loaded machine renders slowly
  await expect(page.getByRole('heading', { level: 2, name: /Revision 1 · version 1\.0\.0/ })).toBeVisible();
  await expectNoAxeViolations(page, 'the changelog');

  await page.screenshot({ path: test.info().outputPath('changelog.png') });
  await page.goto('/docs/api#reclaimUnits');
  await page.screenshot({ path: test.info().outputPath('reference-reclaim.png') });
  await page.locator('section#reclaimUnits').getByRole('region', { name: 'Changes' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('reference-reclaim-changes.png') });

  expect(await seen.csp()).toEqual([]);
  expect(seen.requests.length).toBeGreaterThan(0);
  expect(offSite(seen.requests)).toEqual([]);
});

test('the changelog renders signed out with no script of its own; nothing leaves the site, no CSP violation', async ({ page }) => {
  const seen = await watch(page);
  const res = await page.goto('/docs/api/changelog');
  expect(res!.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'API changelog' })).toBeVisible();
  await expect(page.getByText('The first revision: the document as issue 27 corrected it')).toBeVisible();
  await page.getByRole('link', { name: 'Reference' }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  expect(await seen.csp()).toEqual([]);
  expect(offSite(seen.requests)).toEqual([]);
});
