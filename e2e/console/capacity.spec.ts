import { expect, test } from '@playwright/test';
import { signIn } from './support';

test('an audience user sees the reservations it is in the audience of, across nodes, on My capacity', async ({ page }) => {
  await signIn(page, 'ana@nimbus.example');
  await page.getByRole('link', { name: 'My capacity' }).click();
  await expect(page).toHaveURL(/\/capacity$/);
  await expect(page.getByLabel('Show', { exact: true })).toHaveValue('audience');
  const table = page.getByTestId('capacity-table');
  for (const key of [
    'acme-h100-01/res-nimbus-01',
    'acme-h100-01/res-nimbus-01-review',
    'acme-h100-02/res-nimbus-02',
    'borealis-a100-02/res-nimbus-12',
    'acme-h100-03/res-nimbus-fleet-3',
  ]) {
    await expect(table.locator(`[data-reservation-key="${key}"]`)).toBeVisible();
  }
  await expect(table.locator('[data-reservation-key="acme-h100-01/res-nimbus-01-review"]')).toContainText('needs-review');
  await expect(table.locator('[data-reservation-key="borealis-a100-02/res-nimbus-12"]')).toContainText('pending');
  // Nimbus is not in the audience of Zephyr's reservation, nor may it see it.
  await expect(table.locator('[data-reservation-key="borealis-a100-01/res-zephyr-11"]')).toHaveCount(0);

  // The first HTML holds the table.
  expect(await (await page.context().request.get('/capacity')).text()).toContain('data-reservation-key="acme-h100-02/res-nimbus-02"');

  // Nimbus manages nothing: the other role is in the URL and empty.
  await page.getByLabel('Show', { exact: true }).selectOption('managing');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/[?&]role=managing/);
  await expect(table).toContainText('No reservation lists your org in this role.');
  await page.goBack();
  await expect(page.getByLabel('Show', { exact: true })).toHaveValue('audience');

  await table.getByRole('link', { name: 'res-nimbus-02', exact: true }).click();
  await expect(page).toHaveURL(/\/nodes\/acme-h100-02\/reservations\/res-nimbus-02$/);
  await expect(page.getByTestId('field-allowed-orgs')).toHaveText('Nimbus AI org_nimbus');
});
