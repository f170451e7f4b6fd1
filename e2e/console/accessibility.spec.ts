import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe';
import { asOrg, managedSpotNode, signIn, unit } from './support';

// Issue 23: axe reports nothing on any page or open dialog, in the light and the dark theme
// (docs/product.md §6 "Themes and accessibility", §8 R7). The theme comes from the `theme`
// cookie, as a person's choice would, so what is checked is the server's render of it.

const HOUR = 3_600_000;

type Fixture = { nodeId: string; reservationId: string; vmId: string };

/** managedSpotNode (support.ts), with a reclaim of gpu-3 scheduled three hours ahead. */
async function buildFixture(request: Parameters<typeof managedSpotNode>[0]): Promise<Fixture> {
  const { nodeId, reservationId, vmId } = await managedSpotNode(request, 'theme-a11y', 6);
  const at = new Date(Math.ceil((Date.now() + 3 * HOUR) / 60_000) * 60_000).toISOString();
  await asOrg(request, 'org_helix', 'post', `/v1/nodes/${nodeId}/reservations/${reservationId}/scheduled-reclaims`, { unitIds: ['gpu-3'], at }, 201);
  return { nodeId, reservationId, vmId };
}

/** Opens a dialog with `open`, checks it, and closes it with its dismiss button (nothing is sent). */
async function checkDialog(page: Page, what: string, open: () => Promise<void>, dismiss = 'Cancel') {
  await open();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, what);
  await dialog.getByRole('button', { name: dismiss, exact: true }).last().click();
  await expect(dialog).toBeHidden();
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ context, baseURL }) => {
      await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
    });

    test(`every page, in the ${theme} theme, has no axe violations`, async ({ page, request }) => {
      test.setTimeout(180_000);
      const { vmId } = await buildFixture(request);

      await page.goto('/sign-in');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expectNoAxeViolations(page, 'sign-in');
      await page.goto('/no-such-page');
      await expectNoAxeViolations(page, 'the 404 page');

      // The operator sees every page and is offered every node action.
      await signIn(page, 'olivia@platform.example');
      await expectNoAxeViolations(page, 'fleet');
      await checkDialog(page, 'Register node…', () => page.getByRole('button', { name: 'Register node…' }).click());
      for (const path of [
        '/audit',
        '/calendar',
        '/vms',
        `/vms/${vmId}`,
        '/capacity?role=any',
        '/api-keys',
        '/members',
        `/invite/${'x'.repeat(43)}`,
        '/webhooks',
        '/notifications',
        '/sign-ins',
        '/utilisation',
        '/nodes/no-such-node',
      ]) {
        await page.goto(path);
        await expectNoAxeViolations(page, path);
      }
      await page.goto('/audit');
      await page.getByTestId('audit-table').locator('tbody tr[data-event-id] summary').first().click();
      await expectNoAxeViolations(page, 'audit with an event expanded');
    });

    test(`every node page dialog, in the ${theme} theme, has no axe violations`, async ({ page, request }) => {
      test.setTimeout(180_000);
      const { nodeId, reservationId, vmId } = await buildFixture(request);
      await signIn(page, 'olivia@platform.example');

      // The seeded node with every unit state, and its needs-review reservation's Re-affirm….
      await page.goto('/nodes/acme-h100-01');
      await expectNoAxeViolations(page, 'node acme-h100-01');
      await checkDialog(page, 'Re-affirm…', () =>
        page
          .locator('[data-reservation-id="res-nimbus-01-review"]')
          .getByRole('button', { name: /^Re-affirm/ })
          .click(),
      );

      await page.goto(`/nodes/${nodeId}`);
      await expectNoAxeViolations(page, 'node page');
      await checkDialog(page, 'Change topology…', () => page.getByRole('button', { name: 'Change topology…' }).click());
      await unit(page, 'gpu-4').click();
      await checkDialog(page, 'Reserve…', () => page.getByRole('button', { name: 'Reserve…' }).click());
      await unit(page, 'gpu-4').click();
      await unit(page, 'gpu-0').click();
      await checkDialog(page, 'Release…', () => page.getByRole('button', { name: 'Release…' }).click());
      await unit(page, 'gpu-0').click();
      await unit(page, 'gpu-2').click();
      await checkDialog(page, 'Reclaim… preview', () => page.getByRole('button', { name: 'Reclaim…' }).click());
      await checkDialog(page, 'Reclaim… Schedule mode', async () => {
        await page.getByRole('button', { name: 'Reclaim…' }).click();
        await page.getByRole('dialog').getByLabel('Schedule…').check();
      });
      const row = page.locator(`[data-reservation-id="${reservationId}"]`);
      await checkDialog(page, 'Edit…', () => row.getByRole('button', { name: /^Edit/ }).click());
      await checkDialog(page, 'Cancel reservation…', () => row.getByRole('button', { name: /^Cancel reservation/ }).click());
      await checkDialog(page, 'Terminate…', () =>
        page
          .getByTestId('vm-table')
          .locator(`[data-vm-id="${vmId}"]`)
          .getByRole('button', { name: /^Terminate/ })
          .click(),
      );
      // The Timeline section, open, as chart and as table (issue 24).
      await page.getByTestId('timeline-section').getByRole('button', { name: 'Show timeline' }).click();
      await expect(page.getByTestId('timeline-bar').first()).toBeVisible();
      await expectNoAxeViolations(page, 'node page timeline');
      await page.getByTestId('timeline-table-toggle').click();
      await expect(page.getByTestId('timeline-table')).toBeVisible();
      await expectNoAxeViolations(page, 'node page timeline table');
    });

    test(`the reservation page and API keys, with their dialogs, in the ${theme} theme, have no axe violations`, async ({ page, request }) => {
      test.setTimeout(180_000);
      const { nodeId, reservationId } = await buildFixture(request);
      await signIn(page, 'olivia@platform.example');
      await page.goto(`/nodes/${nodeId}/reservations/${reservationId}`);
      await expectNoAxeViolations(page, 'reservation page');
      const schedule = page.getByTestId('schedule-table').locator('[data-schedule-id]');
      await checkDialog(page, 'Reschedule…', () => schedule.getByRole('button', { name: /^Reschedule/ }).click());
      await checkDialog(page, 'Cancel schedule…', () => schedule.getByRole('button', { name: /^Cancel/ }).click());

      // API keys: the secret shown once, and the revoke confirmation.
      await page.goto('/api-keys');
      const name = `a11y-${theme}-${Date.now()}`;
      await page.getByLabel('Name').fill(name);
      await page.getByRole('button', { name: 'Create API key' }).click();
      await expect(page.getByRole('dialog', { name: `API key “${name}” created` })).toBeVisible();
      await expectNoAxeViolations(page, 'API key created');
      await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      const key = page.locator('[data-api-key-id]').filter({ has: page.getByText(name, { exact: true }) });
      await checkDialog(page, 'Revoke…', () => key.getByRole('button', { name: 'Revoke' }).click());
    });
  });
}

test('with no cookie the theme follows the system, in the server render; the switch remembers a choice', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, 'alice@acme.example');
  const html = page.locator('html');
  await expect(html).not.toHaveAttribute('data-theme');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await background();
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await background()).not.toBe(dark);

  // Chosen in the header: written into the next server render, and kept after a reload.
  const choose = (label: string) => page.getByRole('form', { name: 'Theme' }).getByRole('button', { name: label }).click();
  await choose('Dark');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await background()).toBe(dark);
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await (await page.context().request.get('/')).text()).toContain('data-theme="dark"');
  await expect(page.getByRole('form', { name: 'Theme' }).getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true');
  await choose('Auto');
  await expect(html).not.toHaveAttribute('data-theme');
});

test('keyboard: the skip link is the first stop and lands in main; Tab stays inside an open dialog', async ({ page, request }) => {
  // A node of its own: the seed's may have been reclaimed by the API specs that run first.
  const { nodeId } = await buildFixture(request);
  await signIn(page, 'mark@helix.example');
  await page.goto(`/nodes/${nodeId}`);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  // From main, the grid is a few stops away (was 11 Tabs from the top of the page).
  let stops = 0;
  while (!(await page.evaluate(() => document.activeElement?.hasAttribute('data-unit-id') ?? false)) && stops < 20) {
    await page.keyboard.press('Tab');
    stops += 1;
  }
  expect(stops).toBeLessThanOrEqual(6);

  await unit(page, 'gpu-2').click();
  await page.getByRole('button', { name: 'Reclaim…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const focusables = await dialog.evaluate(
    (d) =>
      [...d.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex="0"]')].filter(
        (el) => el.getClientRects().length > 0,
      ).length,
  );
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 2 * focusables + 1; i += 1) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `${key} ×${i + 1}`).toBe(true);
    }
  }
});
