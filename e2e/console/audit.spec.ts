import { expect, test } from '@playwright/test';
import { readState } from '../support/state';
import { signIn } from './support';

// More vm.place events on one node than a page of the audit trail holds (20).
const PLACEMENTS = 21;

test('the audit trail filters by node and action in the URL, keeps them on reload, pages, and expands an event', async ({ page, request }) => {
  test.setTimeout(90_000);
  const orbit = { authorization: `Bearer ${readState().keys.org_orbit}` };
  // A spot tenant places and ends VMs on a free unit of acme-h100-13 (no other test uses it).
  for (let i = 0; i < PLACEMENTS; i++) {
    const placed = await request.post('/v1/vms', { headers: orbit, data: { nodeId: 'acme-h100-13', unitIds: ['gpu-0'], tier: 'spot' } });
    expect(placed.status()).toBe(201);
    const vm = (await placed.json()) as { id: string };
    expect((await request.post(`/v1/vms/${vm.id}/terminate`, { headers: orbit })).status()).toBe(200);
  }

  // The node owner reads its nodes' events (docs/product.md §2).
  await signIn(page, 'alice@acme.example');
  await page.getByRole('link', { name: 'Audit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  const rows = page.getByTestId('audit-table').locator('tbody tr[data-event-id]');
  await expect(rows).toHaveCount(20);

  await page.getByLabel('Node').fill('acme-h100-13');
  await page.getByLabel('Action').selectOption('vm.place');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/[?&]action=vm\.place/);
  await expect(page).toHaveURL(/[?&]nodeId=acme-h100-13/);
  await expect(rows.getByTestId('event-action')).toHaveText(Array<string>(20).fill('vm.place'));
  // A tenant's own actions show to the node owner without the tenant's identity (§2).
  await expect(rows.first()).toContainText('another org');
  await expect(page.getByTestId('audit-table')).not.toContainText('org_orbit');

  await page.reload();
  await expect(page.getByLabel('Action')).toHaveValue('vm.place');
  await expect(page.getByLabel('Node')).toHaveValue('acme-h100-13');
  await expect(rows).toHaveCount(20);
  const newest = await rows.first().getAttribute('data-event-id');

  await page.getByRole('button', { name: 'Next →' }).click();
  await expect(page.getByText('Page 2')).toBeVisible();
  await expect(rows.getByTestId('event-action')).toHaveText(Array<string>(PLACEMENTS - 20).fill('vm.place'));
  await expect(page.getByRole('button', { name: 'Next →' })).toBeDisabled();
  await page.getByRole('button', { name: '← Previous' }).click();
  await expect(page.getByText('Page 1')).toBeVisible();
  await expect(rows.first()).toHaveAttribute('data-event-id', newest!);

  // Each event expands to its details: actor as §2 allows, transport, reason, what it recorded.
  await rows.first().getByText('Details').click();
  const details = rows.first().getByTestId('event-details');
  await expect(details).toContainText('another org');
  await expect(details).toContainText('via api');
  await expect(details).toContainText('none given');
  await expect(details.locator('[data-detail="tier"]')).toContainText('spot');
  await page.screenshot({ path: 'test-results/audit-page.png', fullPage: true });

  // The first HTML already holds the filtered table (prefetched on the server).
  const html = await (await page.context().request.get('/audit?action=vm.place&nodeId=acme-h100-13')).text();
  expect(html).toContain(`data-event-id="${newest}"`);
});

test('an invalid filter in the URL shows the problem in words (issue 20.2: by its label, not its schema path)', async ({ page }) => {
  await signIn(page, 'alice@acme.example');
  await page.goto('/audit?since=yesterday');
  await expect(page.locator('main').getByRole('alert')).toContainText('Since (UTC) must be a date and time');
});
