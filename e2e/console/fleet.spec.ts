import { expect, test } from '@playwright/test';
import { signIn } from './support';

test('the fleet lists every node with per-state counts, pages and filters by owner', async ({ page }) => {
  await signIn(page, 'olivia@platform.example');
  await expect(page.getByTestId('acting-org')).toContainText('operator');
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText('acme-h100-01');
  await expect(rows.first()).toContainText('org_acme');
  await page.getByRole('button', { name: 'Next →' }).click();
  await expect(page.getByText('Page 2')).toBeVisible();
  // 16 seeded nodes, plus any that other tests registered meanwhile.
  await expect(rows.first()).not.toContainText('acme-h100-01');
  expect(await rows.count()).toBeGreaterThanOrEqual(6);
  await page.getByRole('button', { name: '← Previous' }).click();
  await expect(rows.first()).toContainText('acme-h100-01');
  await page.getByLabel('Owner org').fill('org_borealis');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('borealis-a100-01');
  await page.screenshot({ path: 'test-results/fleet.png' });
  await rows.nth(0).getByRole('link').click();
  await expect(page.getByRole('heading', { name: /Borealis A100 #01/ })).toBeVisible();
});

test('the fleet table and the node grid are in the first HTML (prefetched on the server, no client waterfall)', async ({ page }) => {
  await signIn(page, 'alice@acme.example');
  // The page's own HTML, as the server sends it, before any script runs.
  const fleet = await (await page.context().request.get('/')).text();
  expect(fleet).toContain('acme-h100-01');
  const node = await (await page.context().request.get('/nodes/acme-h100-02')).text();
  expect(node).toContain('data-unit-id="gpu-0"');
  expect(node).toContain('res-nimbus-02');
  expect(node).toContain('data-testid="vm-table"');
  expect(node).not.toContain('Loading node…');
});

test('with JavaScript off, the fleet table (with what the operator may do) and the node grid still show', async ({ page, browser }) => {
  await signIn(page, 'olivia@platform.example');
  const noJs = await browser.newContext({ storageState: await page.context().storageState(), javaScriptEnabled: false });
  const p = await noJs.newPage();
  await p.goto('/');
  await expect(p.locator('tbody tr').first()).toContainText('acme-h100-01');
  // Prefetched with the table, so the button is in the first HTML rather than popping in after a client call.
  await expect(p.getByRole('button', { name: 'Register node…' })).toBeVisible();
  await p.goto('/nodes/acme-h100-02');
  await expect(p.locator('[data-unit-id="gpu-0"]').first()).toBeVisible();
  await expect(p.getByText('res-nimbus-02').first()).toBeVisible();
  await noJs.close();
});
