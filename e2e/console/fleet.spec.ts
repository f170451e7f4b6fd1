import { expect, test } from '@playwright/test';
import { signIn } from './support';

test('the fleet lists every node with per-state counts, pages and filters by owner', async ({ page }) => {
  await signIn(page, 'olivia@platform.example');
  await expect(page.getByTestId('acting-org')).toContainText('operator');
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText('acme-h100-01');
  await expect(rows.first()).toContainText('org_acme');
  await expect(page.getByTestId('pager-position')).toContainText(/^1–10 of \d+ nodes · page 1 of \d+$/);
  await page.getByRole('button', { name: 'Next →' }).click();
  await expect(page.getByTestId('pager-position')).toContainText(/^11–\d+ of \d+ nodes · page 2 of \d+$/);
  // 16 seeded nodes, plus any that other tests registered meanwhile.
  await expect(rows.first()).not.toContainText('acme-h100-01');
  expect(await rows.count()).toBeGreaterThanOrEqual(6);
  await page.getByRole('button', { name: '← Previous' }).click();
  await expect(rows.first()).toContainText('acme-h100-01');
  await page.getByLabel('Owner').fill('org_borealis');
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

test('the fleet searches by name, filters the owner by name, sorts by its headers, filters by relation, clears, and keeps it all in the URL', async ({
  page,
}) => {
  await signIn(page, 'ana@nimbus.example');
  const rows = page.locator('tbody tr');
  // Search by part of the name, case-insensitive: the URL carries it, and a reload keeps it.
  await page.getByLabel('Search').fill('borealis a100');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/[?&]q=borealis\+a100/);
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('fleet-total')).toHaveText('2 nodes match');
  await expect(page.getByTestId('pager-position')).toHaveText('1–2 of 2 nodes · page 1 of 1');
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(page.getByLabel('Search')).toHaveValue('borealis a100');

  // The owner as a person types it: "Acme" is Acme Compute's name, not an id.
  await page.getByRole('button', { name: 'Clear' }).click();
  // Clear is a navigation: the form is filled again only once it has landed.
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveURL(/\/$/);
  await page.getByLabel('Owner').fill('Acme');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('owner-filter')).toContainText('Nodes owned by Acme Compute');
  await expect(rows.first()).toContainText('org_acme');
  await expect(page.getByText('No nodes match.')).toHaveCount(0);
  // The owners it offers as one types (a datalist, rendered with the page).
  await expect(page.locator('datalist option[value="Acme Compute"]')).toHaveCount(1);

  // Sort by the Node header (name): aria-sort says so, a second click reverses, the URL keeps the filter.
  const nodeHeader = page.locator('th', { hasText: 'Node' });
  await expect(nodeHeader).toHaveAttribute('aria-sort', 'ascending');
  await nodeHeader.getByRole('link', { name: /^Node/ }).click();
  await expect(page).toHaveURL(/sort=name&order=asc/);
  await expect(page).toHaveURL(/owner=Acme/);
  const ascending = await rows.locator('a').first().textContent();
  await nodeHeader.getByRole('link', { name: /^Node/ }).click();
  await expect(page).toHaveURL(/sort=name&order=desc/);
  await expect(nodeHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.locator('a').first()).not.toHaveText(ascending!);
  await expect(page.locator('th', { hasText: 'Owner' })).toHaveAttribute('aria-sort', 'none');

  // Relation: the nodes Nimbus may use, each marked.
  await page.getByRole('button', { name: 'Clear' }).click();
  // Clear is a navigation: the form is filled again only once it has landed.
  await expect(page).toHaveURL(/\/$/);
  await page.getByLabel('My org').selectOption('uses');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/relation=uses/);
  expect(await rows.count()).toBeGreaterThan(0);
  for (const badge of await page.getByTestId('node-relations').all()) await expect(badge).toContainText('my org may use');
  expect(await page.getByTestId('node-relations').count()).toBe(await rows.count());
  await page.getByRole('button', { name: 'Clear' }).click();
  // Clear is a navigation: the form is filled again only once it has landed.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel('My org')).toHaveValue('');
  await expect(rows).toHaveCount(10);
});

test('a refused fleet filter says why under it, in words', async ({ page }) => {
  await signIn(page, 'alice@acme.example');
  await page.goto(`/?q=${'x'.repeat(101)}`);
  await expect(page.locator('[data-field-error]')).toContainText('at most 100 characters');
  await page.goto('/?sort=units');
  await expect(page.locator('[data-field-error]').first()).toBeVisible();
});
