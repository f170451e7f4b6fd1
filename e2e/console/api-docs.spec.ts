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

test('the API reference renders signed out with Redoc, every operation with its limits, problem codes and examples, the reclaim with its history; Redoc loads on demand and hydrates; nothing leaves the site, no CSP violation', async ({
  page,
}) => {
  test.setTimeout(120_000); // a page of every operation, on a shared machine
  const seen = await watch(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const res = await page.goto('/docs/api');
  expect(res!.status()).toBe(200);
  expect(page.url()).toMatch(/\/docs\/api$/); // not sent to sign-in
  expect(res!.headers()['content-security-policy']).toContain("'strict-dynamic'");
  // Server-rendered by Redoc: the whole reference is in the page as it arrives.
  const html = await res!.text();
  expect(html).toContain('redoc-wrap');
  await expect(page.getByRole('heading', { level: 1, name: /GPU Reservations API/ })).toBeVisible();

  const doc = (await (await page.request.get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
  const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
  for (const id of ids) {
    expect(html, id).toContain(`id="operation/${id}"`);
    await expect(page.locator(`[id="operation/${id}"]`), id).toHaveCount(1);
  }

  const reclaim = page.locator('[id="operation/reclaimUnits"]');
  await expect(reclaim.getByText('/v1/nodes/{nodeId}/reservations/{id}/reclaim').first()).toBeAttached();
  await expect(reclaim.getByText('Report which spot workloads would be terminated', { exact: false })).toBeVisible();
  await expect(reclaim.getByText('[ 1 .. 1024 ] items').first()).toBeVisible();
  await expect(reclaim.locator('option', { hasText: 'A dry run: what the reclaim would terminate' }).first()).toBeAttached();
  // Its history, after the contract's description (the served document's stays word for word).
  await expect(reclaim).toContainText(/Changes\. Changed in \d+ of the \d+ revisions? of this API; present since revision 1 \(1\.0\.0/);

  // Redoc's browser code arrives on demand and takes the page over: a tag of the menu opens.
  await expect(async () => {
    await page.locator('[data-item-id="tag/Reservations"]').click();
    await expect(page.locator('[data-item-id="tag/Reservations/operation/reclaimUnits"]')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await page.locator('[data-item-id="tag/Reservations/operation/reclaimUnits"]').click();
  await expect(page).toHaveURL(/#tag\/Reservations\/operation\/reclaimUnits$/);
  await page.screenshot({ path: test.info().outputPath('reference-reclaim.png') });
  const changes = reclaim.getByRole('link', { name: /revision 1 \(1\.0\.0/ });
  await changes.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('reference-reclaim-changes.png') });
  await changes.click();
  await expect(page).toHaveURL(/\/docs\/api\/changelog#revision-1$/, { timeout: 30_000 }); // a loaded machine renders slowly
  await expect(page.getByRole('heading', { level: 2, name: /Revision 1 · version 1\.0\.0/ })).toBeVisible();
  await expectNoAxeViolations(page, 'the changelog');
  await page.screenshot({ path: test.info().outputPath('changelog.png') });

  expect(await seen.csp()).toEqual([]);
  expect(errors.filter((e) => !/Content Security Policy/i.test(e))).toEqual([]);
  expect(seen.requests.length).toBeGreaterThan(0);
  expect(offSite(seen.requests)).toEqual([]);
});

test("on a phone the reference's icons draw and its menu button opens the menu", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { level: 1, name: /GPU Reservations API/ })).toBeVisible();
  // Every path Redoc draws keeps its shape: the reset of the console's styles inside the
  // reference once reverted the `d` of each path (a CSS property in Chromium), and the phone's
  // menu button was a blank disc.
  const blank = () =>
    page.evaluate(() => [...document.querySelectorAll('#redoc-root svg path[d]')].filter((p) => getComputedStyle(p).getPropertyValue('d') === 'none').length);
  expect(await page.locator('#redoc-root svg path[d]').count()).toBeGreaterThan(0);
  expect(await blank()).toBe(0);
  // The menu button: the icon drawn with paths (the rest of Redoc's icons are polygons).
  const button = page.locator('#redoc-root svg:has(path[d])').first();
  await expect(button).toBeInViewport();
  await expect(page.locator('[data-item-id="tag/Reservations"]')).not.toBeInViewport(); // the menu is closed
  // Once Redoc's browser code has hydrated the page, a tap opens the menu.
  await expect(async () => {
    await button.click();
    await expect(page.locator('[data-item-id="tag/Reservations"]')).toBeInViewport({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  expect(await blank()).toBe(0);
  await page.screenshot({ path: test.info().outputPath('reference-phone-menu.png') });
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds nothing on the reference in the ${theme} theme once Redoc has made it interactive`, async ({ page, context, baseURL }) => {
    test.setTimeout(120_000); // axe over every operation, on a shared machine
    await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
    await page.goto('/docs/api');
    await expect(page.getByRole('heading', { level: 1, name: /GPU Reservations API/ })).toBeVisible();
    // Hydrated and mended (components/api-reference/redoc-a11y.ts): its drop-downs carry names.
    await expect(page.locator('#redoc-root select[aria-label]').first()).toBeAttached({ timeout: 60_000 });
    await expect(page.locator('#redoc-root select:not([aria-label])')).toHaveCount(0);
    await expectNoAxeViolations(page, `the reference (${theme})`);
  });
}

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
