import { expect, test } from '@playwright/test';
import { signIn } from './support';

test('the VMs page filters by status in the URL, keeps it on reload, and links each VM to its page', async ({ page }) => {
  await signIn(page, 'tom@orbit.example');
  await page.getByRole('link', { name: 'VMs', exact: true }).click();
  await expect(page).toHaveURL(/\/vms$/);
  const table = page.getByTestId('vm-list');
  const statuses = table.getByTestId('vm-status');
  await expect(statuses.first()).toBeVisible();

  await page.getByLabel('Status').selectOption('terminated');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/[?&]status=terminated/);
  // An ended VM reads by how it ended (docs/product.md §6), once.
  await expect(statuses.first()).toHaveText(/^(reclaimed|terminated by its owner)$/);
  for (const s of await statuses.allTextContents()) expect(s).toMatch(/^(reclaimed|terminated by its owner)$/);

  await page.reload();
  await expect(page.getByLabel('Status')).toHaveValue('terminated');
  for (const s of await statuses.allTextContents()) expect(s).toMatch(/^(reclaimed|terminated by its owner)$/);

  await page.getByLabel('Status').selectOption('running');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/[?&]status=running/);
  const od = table.locator('[data-vm-id="vm-orbit-od-13"]');
  await expect(od).toContainText('running');
  await expect(od).toContainText('org_orbit');
  for (const s of await statuses.allTextContents()) expect(s).toBe('running');
  // The VM's own page (built beside this one) is one click away.
  await expect(od.getByRole('link', { name: 'vm-orbit-od-13' })).toHaveAttribute('href', '/vms/vm-orbit-od-13');

  // The first HTML holds the filtered table.
  expect(await (await page.context().request.get('/vms?status=running')).text()).toContain('data-vm-id="vm-orbit-od-13"');
});
