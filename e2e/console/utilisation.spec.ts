import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe';
import { readState } from '../support/state';
import { asOrg, managedSpotNode, signIn } from './support';

// Issue 24 point 3 (docs/product.md §5.8 Utilisation): the reservation page's Utilisation section
// (figures, a chart loaded on demand, the series as a table, a 7 d / 30 d switch in the URL) and
// the Utilisation page's roll-up per relation, for each persona; axe in both themes; screenshots
// at 375 and 1440 px wide (test-results/utilisation-*.png).

/** The first section holding a chart, as a picture: what a person reads there, at this width. */
const shot = (page: Page, name: string) =>
  page
    .locator('section')
    .filter({ has: page.getByTestId('utilisation-chart') })
    .first()
    .screenshot({ path: `test-results/utilisation-${name}.png` });

test('the reservation page shows its utilisation: figures, the chart, the table, the 30-day switch', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { nodeId, reservationId } = await managedSpotNode(request, 'util');
  // The audience runs a VM of its own on gpu-0, so every part of the bar has something.
  await asOrg(request, 'org_nimbus', 'post', '/v1/vms', { nodeId, unitIds: ['gpu-0'], tier: 'reserved', reservationId }, 201);
  await signIn(page, 'mark@helix.example');
  await page.goto(`/nodes/${nodeId}/reservations/${reservationId}`);
  const section = page.getByRole('region', { name: 'Utilisation' });
  await expect(section).toBeVisible();
  await expect(section.getByTestId('utilisation-held')).toHaveText(/GPU-h$/);
  await expect(section.getByTestId('utilisation-evictions')).toHaveText('0');
  // The chart arrives after the page (its own chunk), drawn with the theme's colours.
  await expect(section.getByTestId('utilisation-chart').locator('.recharts-wrapper')).toBeVisible();
  await expect(section.getByRole('img', { name: /Chart of the held GPU-hours over the last 7 days/ })).toBeVisible();
  await section.getByText('The series as a table').click();
  await expect(section.getByTestId('utilisation-table').locator('tbody tr')).toHaveCount(28);
  await expect(section.getByRole('link', { name: 'Last 7 days' })).toHaveAttribute('aria-current', 'page');

  await section.getByRole('link', { name: 'Last 30 days' }).click();
  await expect(page).toHaveURL(/[?&]window=30d/);
  const after = page.getByRole('region', { name: 'Utilisation' });
  await expect(after.getByRole('link', { name: 'Last 30 days' })).toHaveAttribute('aria-current', 'page');
  await after.getByText('The series as a table').click();
  await expect(after.getByTestId('utilisation-table').locator('tbody tr')).toHaveCount(30);

  // The spot tenant may not see the reservation, nor so its utilisation (404 over the API too).
  const orbit = await request.get(`/v1/nodes/${nodeId}/reservations/${reservationId}/utilisation?window=7d`, {
    headers: { authorization: `Bearer ${readState().keys.org_orbit}` },
  });
  expect(orbit.status()).toBe(404);
});

test('the Utilisation page shows each persona its own relations; the operator the fleet', async ({ page }) => {
  test.setTimeout(90_000);
  const cases: [email: string, shown: string[], hidden: string[]][] = [
    ['alice@acme.example', ['On the nodes you own'], ['The whole fleet']],
    ['mark@helix.example', ['Reservations you manage'], ['On the nodes you own', 'The whole fleet']],
    ['ana@nimbus.example', ['Reservations you may use'], ['On the nodes you own', 'Reservations you manage', 'The whole fleet']],
    ['olivia@platform.example', ['The whole fleet'], []],
    ['tom@orbit.example', [], ['On the nodes you own', 'Reservations you manage', 'The whole fleet']],
  ];
  for (const [email, shown, hidden] of cases) {
    await page.context().clearCookies();
    await signIn(page, email);
    await page.getByRole('navigation').getByRole('link', { name: 'Utilisation' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Utilisation' })).toBeVisible();
    for (const h of shown) await expect(page.getByRole('heading', { level: 2, name: h }), `${email}: ${h}`).toBeVisible();
    for (const h of hidden) await expect(page.getByRole('heading', { level: 2, name: h }), `${email}: ${h}`).toHaveCount(0);
  }
  await page.getByRole('link', { name: 'Last 30 days' }).click();
  await expect(page).toHaveURL(/\/utilisation\?window=30d/);
});

for (const theme of ['light', 'dark'] as const) {
  test(`utilisation in the ${theme} theme: no axe violations; screenshots at 375 and 1440 px`, async ({ page, context, baseURL, request }) => {
    test.setTimeout(90_000);
    await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
    const { nodeId, reservationId } = await managedSpotNode(request, `util-${theme}`);
    await signIn(page, 'olivia@platform.example');
    for (const [name, path] of [
      ['reservation', `/nodes/${nodeId}/reservations/${reservationId}`],
      ['rollup', '/utilisation?window=30d'],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(page.getByTestId('utilisation-chart').first().locator('.recharts-wrapper')).toBeVisible();
      await page.getByText('The series as a table').first().click();
      await expectNoAxeViolations(page, `${name} (${theme})`);
      for (const width of [375, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.getByTestId('utilisation-chart').first().scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        await shot(page, `${name}-${theme}-${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
}
