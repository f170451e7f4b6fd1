import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe';
import { signIn } from './support';

// The fleet calendar (docs/product.md §5.8 "Fleet calendar"): a Gantt by node of the reservations
// the acting org may see, filtered like the fleet, its window and view in the URL.

const bar = (page: Page, id: string) => page.locator(`[data-reservation-id="${id}"]`).first();
const row = (page: Page, nodeId: string) => page.locator(`[role="row"][data-node-id="${nodeId}"]`);

test('the operator opens Calendar, sees bars by status, filters, changes the window and reads the table', async ({ page }) => {
  await signIn(page, 'olivia@platform.example');
  await page.getByRole('link', { name: 'Calendar', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Calendar' })).toBeVisible();
  // acme-h100-01: active, needs-review and pending (ahead) bars; its cancelled reservation is no bar.
  const acme = row(page, 'acme-h100-01');
  await expect(acme.locator('[data-reservation-id="res-nimbus-01"]')).toHaveAttribute('data-status', 'active');
  await expect(acme.locator('[data-reservation-id="res-nimbus-01-review"]')).toHaveAttribute('data-status', 'needs-review');
  await expect(acme.locator('[data-reservation-id="res-zephyr-01-pending"]')).toHaveAttribute('data-status', 'pending');
  await expect(acme.locator('[data-reservation-id="res-orbit-01-cancelled"]')).toHaveCount(0);
  // Hover or focus says the details in the console's zone; the link names them too.
  await bar(page, 'res-zephyr-01-pending').hover();
  await expect(page.getByTestId('bar-details')).toContainText(/res-zephyr-01-pending on Acme H100 #01 .* pending \(ahead\) .* UTC/);
  await bar(page, 'res-nimbus-01').focus();
  await expect(page.getByTestId('bar-details')).toContainText('res-nimbus-01 on Acme H100 #01');
  await expect(bar(page, 'res-nimbus-01')).toHaveAttribute('aria-label', /for Nimbus/);

  // The window: 24 h, then a day later; the URL keeps it, and a reload shows the same window.
  await page.getByRole('link', { name: '24 h', exact: true }).click();
  await expect(page.getByRole('link', { name: '24 h', exact: true })).toHaveAttribute('aria-current', 'true');
  const before = await page.getByTestId('calendar-period').textContent();
  await page.getByRole('link', { name: 'Later →' }).click();
  await expect(page).toHaveURL(/span=24h/);
  await expect(page).toHaveURL(/from=/);
  await expect(page.getByTestId('calendar-period')).not.toHaveText(before!);
  const later = await page.getByTestId('calendar-period').textContent();
  await page.reload();
  await expect(page.getByTestId('calendar-period')).toHaveText(later!);
  await page.getByRole('link', { name: 'Now' }).click();
  await expect(page.getByTestId('calendar-period')).toHaveText(before!);

  // The fleet's filters, with its words; the window stays.
  await page.getByRole('link', { name: '30 d', exact: true }).click();
  await expect(page.getByRole('link', { name: '30 d', exact: true })).toHaveAttribute('aria-current', 'true');
  await page.getByLabel('Owner').fill('borealis');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/owner=borealis/);
  await expect(page).toHaveURL(/span=30d/);
  await expect(page.locator('[role="row"][data-node-id]')).toHaveCount(2);
  await expect(row(page, 'borealis-a100-01').locator('[data-reservation-id="res-zephyr-11"]')).toBeVisible();

  // The table view of the same data, and a bar's link to its reservation.
  await page.getByRole('link', { name: 'Table', exact: true }).click();
  await expect(page).toHaveURL(/view=table/);
  const table = page.getByRole('table');
  await expect(table.locator('tr[data-reservation-id="res-zephyr-11"]')).toContainText('active');
  await expect(table.getByRole('columnheader', { name: 'Status' })).toBeVisible();
  await page.getByRole('link', { name: 'Chart', exact: true }).click();
  // The chart's bar, not the table's row of the same reservation while the table is still shown.
  await expect(page).not.toHaveURL(/view=table/);
  await row(page, 'borealis-a100-01').locator('[data-reservation-id="res-zephyr-11"]').click();
  await expect(page).toHaveURL(/\/nodes\/borealis-a100-01\/reservations\/res-zephyr-11/);
});

test('another persona sees fewer bars: the audience its own, a spot-only tenant none', async ({ page }) => {
  await signIn(page, 'ana@nimbus.example');
  await page.goto('/calendar?span=30d');
  await expect(bar(page, 'res-nimbus-01')).toBeVisible();
  await expect(bar(page, 'res-nimbus-02')).toBeVisible();
  // Zephyr's pending reservation is not Nimbus's to see, though its node is listed.
  await expect(row(page, 'acme-h100-01')).toBeVisible();
  await expect(page.locator('[data-reservation-id="res-zephyr-01-pending"]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signIn(page, 'tom@orbit.example');
  await page.goto('/calendar?span=30d');
  await expect(row(page, 'acme-h100-01')).toBeVisible();
  await expect(page.locator('[data-reservation-id]')).toHaveCount(0);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the calendar, in the ${theme} theme, has no axe violations and fits 375 px and 1440 px`, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
    await signIn(page, 'olivia@platform.example');
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/calendar');
      await expect(bar(page, 'res-nimbus-01')).toBeVisible();
      await expectNoAxeViolations(page, `calendar ${width}px`);
      // The chart scrolls inside itself; the page never does sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await bar(page, 'res-zephyr-01-pending').hover();
      await page.screenshot({ path: `test-results/calendar-${theme}-${width}.png`, fullPage: true });
      await page.goto('/calendar?view=table');
      await expectNoAxeViolations(page, `calendar table ${width}px`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `test-results/calendar-table-${theme}-${width}.png`, fullPage: true });
    }
  });
}
