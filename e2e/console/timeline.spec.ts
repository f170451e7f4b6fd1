import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe';
import { asOrg, managedSpotNode, signIn } from './support';

// The node timeline (docs/product.md §5.8 Node timeline, §6): bars per unit as the acting org may
// see them, zoom in the URL, details on hover and focus, the table view, axe in both themes.

const HOUR = 3_600_000;
const SHOTS = process.env.TIMELINE_SHOTS_DIR;

/** managedSpotNode (support.ts) on six units, with a pending reservation of gpu-4 and gpu-5 two days ahead, and a reclaim scheduled. */
async function buildFixture(request: Parameters<typeof managedSpotNode>[0]) {
  const fixture = await managedSpotNode(request, 'timeline', 6);
  const startsAt = new Date(Date.now() + 48 * HOUR).toISOString();
  await asOrg(
    request,
    'org_acme',
    'post',
    `/v1/nodes/${fixture.nodeId}/reservations`,
    { reservedUnitIds: ['gpu-4', 'gpu-5'], allowedOrgIds: ['org_nimbus'], managingOrgIds: ['org_helix'], startsAt },
    201,
  );
  const at = new Date(Math.ceil((Date.now() + 3 * HOUR) / 60_000) * 60_000).toISOString();
  await asOrg(
    request,
    'org_helix',
    'post',
    `/v1/nodes/${fixture.nodeId}/reservations/${fixture.reservationId}/scheduled-reclaims`,
    { unitIds: ['gpu-3'], at },
    201,
  );
  return fixture;
}

const section = (page: Page) => page.getByTestId('timeline-section');

test('the managing org sees bars, zooms (kept on reload), reads details on hover and focus, and the table; a spot tenant sees only its VM', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const { nodeId, vmId } = await buildFixture(request);
  await signIn(page, 'mark@helix.example');
  await page.goto(`/nodes/${nodeId}`);
  // On demand: nothing loads until asked (the page makes no client data call of its own).
  await section(page).getByRole('button', { name: 'Show timeline' }).click();
  const bars = section(page).getByTestId('timeline-bar');
  await expect(bars.first()).toBeVisible();
  // Reserved on gpu-0…3, released on gpu-2 and 3, the VM on gpu-2, and the pending reservation ahead.
  await expect(section(page).locator('[data-unit="gpu-2"] [data-kind="vm"]')).toHaveCount(1);
  await expect(section(page).locator('[data-unit="gpu-3"] [data-kind="released"]')).toHaveCount(1);
  await expect(section(page).locator('[data-unit="gpu-4"] [data-pending]')).toHaveCount(1);
  await expect(section(page).locator('[data-kind="scheduled-reclaim"]')).toHaveCount(1);
  await expect(section(page).getByTestId('timeline-now')).toBeVisible();

  // Hover and keyboard focus name who, what and when.
  await section(page).locator('[data-unit="gpu-2"] [data-kind="vm"]').hover();
  await expect(section(page).getByTestId('timeline-details')).toContainText(`VM ${vmId}`);
  await section(page).locator('[data-unit="gpu-4"] [data-pending]').focus();
  await expect(section(page).getByTestId('timeline-details')).toContainText(/gpu-4: Reserved — Reservation .* \(pending\) for .*ahead/);

  // Zoom: the window changes and lands in the URL; a reload keeps it.
  const before = await section(page).getByTestId('timeline-window').textContent();
  await section(page).getByRole('button', { name: '24 h', exact: true }).click();
  await expect(page).toHaveURL(/tlZoom=24h/);
  await expect(section(page).getByTestId('timeline-window')).not.toHaveText(before!);
  await expect(section(page).getByRole('button', { name: '24 h', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await section(page).getByRole('button', { name: 'Later →' }).click();
  await page.reload();
  await expect(section(page).getByRole('button', { name: '24 h', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await section(page).getByRole('button', { name: '7 d', exact: true }).click();

  // The table: the same rows, with a caption and header cells.
  await section(page).getByTestId('timeline-table-toggle').click();
  const table = section(page).getByTestId('timeline-table');
  await expect(table.locator('caption')).toContainText(`Intervals on node ${nodeId}`);
  await expect(table.getByRole('row').filter({ hasText: `VM ${vmId}` })).toHaveCount(1);
  await expect(section(page).getByTestId('timeline-events-table')).toContainText('Scheduled reclaim');

  // A spot tenant: its own VM only, no reservation named, no scheduled reclaim.
  const tenant = await (await browser.newContext()).newPage();
  await signIn(tenant, 'tom@orbit.example');
  await tenant.goto(`/nodes/${nodeId}?tlZoom=7d`);
  const tenantBars = section(tenant).getByTestId('timeline-bar');
  await expect(tenantBars.first()).toBeVisible();
  await expect(tenantBars).toHaveCount(1);
  await expect(section(tenant).locator('[data-kind="scheduled-reclaim"]')).toHaveCount(0);
  await tenantBars.first().hover();
  await expect(section(tenant).getByTestId('timeline-details')).toContainText(`VM ${vmId} (spot of`);
  await expect(section(tenant).getByTestId('timeline-details')).not.toContainText('on reservation');
  await tenant.context().close();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the timeline section has no axe violations, chart and table, in the ${theme} theme; it fits 375 px`, async ({ page, request, context, baseURL }) => {
    test.setTimeout(120_000);
    await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
    const { nodeId } = await buildFixture(request);
    await signIn(page, 'alice@acme.example');
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.goto(`/nodes/${nodeId}`);
      await section(page).getByRole('button', { name: 'Show timeline' }).click();
      await expect(section(page).getByTestId('timeline-bar').first()).toBeVisible();
      // The page never scrolls sideways: the chart scrolls inside its section.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await section(page).locator('[data-unit="gpu-2"] [data-kind="vm"]').hover();
      if (SHOTS) await section(page).screenshot({ path: `${SHOTS}/timeline-${theme}-${width}.png` });
      // axe at 1440 px: at 375 px the page's VM table (not the timeline's) scrolls in a region axe wants focusable.
      if (width === 1440) await expectNoAxeViolations(page, `node timeline chart ${theme}`);
    }
    await section(page).getByTestId('timeline-table-toggle').click();
    await expect(section(page).getByTestId('timeline-table')).toBeVisible();
    if (SHOTS) await section(page).screenshot({ path: `${SHOTS}/timeline-table-${theme}-375.png` });
    await page.setViewportSize({ width: 1440, height: 1000 });
    await expectNoAxeViolations(page, `node timeline table ${theme}`);
  });
}
