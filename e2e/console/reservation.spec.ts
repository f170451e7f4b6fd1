import { expect, test } from '@playwright/test';
import { readState } from '../support/state';
import { signIn } from './support';

test('the reservation page shows every field, its units on a mini-grid and its status history (res-nimbus-02)', async ({ page }) => {
  await signIn(page, 'mark@helix.example');
  await page.goto('/nodes/acme-h100-02');
  // Each reservation id of the node page's panel links to its page.
  await page.locator('[data-reservation-id="res-nimbus-02"]').getByRole('link', { name: 'res-nimbus-02' }).click();
  await expect(page).toHaveURL(/\/nodes\/acme-h100-02\/reservations\/res-nimbus-02$/);
  await expect(page.getByRole('heading', { name: /res-nimbus-02/ })).toBeVisible();

  await expect(page.getByTestId('field-node')).toHaveText('acme-h100-02');
  await expect(page.getByTestId('field-status')).toHaveText('active');
  await expect(page.getByTestId('field-reserved-units')).toHaveText('gpu-0, gpu-1, gpu-2, gpu-3, gpu-4, gpu-5, gpu-6, gpu-7');
  await expect(page.getByTestId('field-allowed-orgs')).toHaveText('Nimbus AI org_nimbus');
  await expect(page.getByTestId('field-managing-orgs')).toHaveText('Helix Capacity Partners org_helix');
  await expect(page.getByTestId('field-contract-ref')).toHaveText('MSA-2026-018');
  await expect(page.getByTestId('field-topology-gen')).toHaveText('1');
  await expect(page.getByTestId('field-ends-at')).toContainText('UTC');

  const grid = page.getByTestId('reservation-grid');
  await expect(grid.locator('[data-mini-unit]')).toHaveCount(8);
  await expect(grid.locator('[data-highlighted="true"]')).toHaveCount(8);
  await expect(grid.locator('[data-mini-unit="gpu-6"]')).toHaveAttribute('data-state', 'reserved-occupied');

  const history = page.getByTestId('status-history');
  await expect(history.locator('[data-history-kind="created"]')).toContainText('active');
  await expect(history.locator('li').last()).toContainText('active');
  await expect(page.getByTestId('audit-table')).toBeVisible();
  await page.screenshot({ path: 'test-results/reservation-page.png', fullPage: true });

  // The first HTML holds the fields, the grid and the history (prefetched on the server).
  const html = await (await page.context().request.get('/nodes/acme-h100-02/reservations/res-nimbus-02')).text();
  for (const part of ['MSA-2026-018', 'data-mini-unit="gpu-7"', 'data-history-kind="created"']) expect(html).toContain(part);
  expect(html).not.toContain('Loading reservation…');
});

test('a reservation of some of the node’s units: those ringed on the grid; an edit shows in its history and trail', async ({ page, request }) => {
  // The node owner edits a reservation no other test touches, over the API.
  const acme = { authorization: `Bearer ${readState().keys.org_acme}` };
  const patched = await request.patch('/v1/nodes/acme-h100-06/reservations/res-nimbus-fleet-6', {
    headers: acme,
    data: { contractRef: 'MSA-2026-099', reason: 'Renewed contract' },
  });
  expect(patched.status()).toBe(200);

  await signIn(page, 'mark@helix.example');
  await page.goto('/nodes/acme-h100-06/reservations/res-nimbus-fleet-6');
  const grid = page.getByTestId('reservation-grid');
  await expect(grid.locator('[data-mini-unit]')).toHaveCount(8);
  await expect(grid.locator('[data-highlighted="true"]')).toHaveCount(4);
  await expect(grid.locator('[data-mini-unit="gpu-4"]')).toHaveAttribute('data-highlighted', 'false');

  const history = page.getByTestId('status-history');
  await expect(history.locator('[data-history-kind]')).toHaveCount(2);
  const edit = history.locator('[data-history-kind="updated"]');
  await expect(edit).toContainText('Edited');
  await expect(edit).toContainText('Renewed contract');
  // A managing org sees the node owner's identity on events of the reservations it manages (§2).
  await expect(edit).toContainText('org_acme');

  const trail = page.getByTestId('audit-table').locator('tbody tr[data-event-id]');
  await expect(trail).toHaveCount(1);
  await expect(trail.first()).toContainText('reservation.update');
  await trail.first().getByText('Details').click();
  await expect(trail.first().locator('[data-detail="contractRef"]')).toContainText('MSA-2026-099');
});

test('a reservation the acting org may not see shows the problem’s detail', async ({ page }) => {
  await signIn(page, 'tom@orbit.example');
  await page.goto('/nodes/acme-h100-02/reservations/res-nimbus-02');
  const alert = page.locator('main').getByRole('alert');
  await expect(alert).toContainText('was not found, or you may not see it');
  await expect(alert.getByRole('link', { name: 'Back to the node' })).toBeVisible();
});
