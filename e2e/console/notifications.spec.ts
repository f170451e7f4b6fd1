import { expect, test, type Page } from '@playwright/test';
import { readState } from '../support/state';
import { signIn, unit } from './support';

/** The bell's unread count, from its accessible name ("Notifications, 3 unread"). */
async function unreadCount(page: Page): Promise<number> {
  const label = (await page.getByTestId('notification-bell').getAttribute('aria-label')) ?? '';
  const match = /Notifications, (\d+) unread/.exec(label);
  expect(match, label).not.toBeNull();
  return Number(match![1]);
}

test('after a reclaim by the managing org, the evicted tenant sees the notification and the terminated VM with its reason, marks it read, and the bell drops', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  const state = readState();
  // A spot VM of Orbit's on a unit Helix manages: Helix releases gpu-0 of a fleet reservation,
  // Orbit places on it (both through the public API, as programs would).
  const released = await request.post('/v1/nodes/acme-h100-12/reservations/res-nimbus-fleet-12/release', {
    headers: { authorization: `Bearer ${state.keys.org_helix}` },
    data: { unitIds: ['gpu-0'] },
  });
  expect(released.status(), await released.text()).toBe(200);
  const placed = await request.post('/v1/vms', {
    headers: { authorization: `Bearer ${state.keys.org_orbit}` },
    data: { nodeId: 'acme-h100-12', unitIds: ['gpu-0'], tier: 'spot' },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const vmId = ((await placed.json()) as { id: string }).id;

  // Tom (Orbit) is signed in; the bell shows what was unread before.
  await signIn(page, 'tom@orbit.example');
  const before = await unreadCount(page);

  // Mark (Helix) reclaims the unit in the console, giving a reason.
  const markContext = await browser.newContext({ baseURL });
  const mark = await markContext.newPage();
  await signIn(mark, 'mark@helix.example');
  await mark.goto('/nodes/acme-h100-12');
  await expect(unit(mark, 'gpu-0')).toHaveAttribute('data-state', 'spot-occupied');
  await unit(mark, 'gpu-0').click();
  await mark.getByRole('button', { name: 'Reclaim…' }).click();
  const dialog = mark.getByRole('dialog');
  await expect(dialog.getByTestId('preview-terminate').locator(`[data-vm-id="${vmId}"]`)).toBeVisible();
  await dialog.getByLabel(/Reason/).fill('Nimbus needs gpu-0 back');
  await dialog.getByRole('button', { name: 'Terminate 1 spot VM and reclaim 1 unit' }).click();
  await expect(dialog.getByTestId('reclaim-summary')).toContainText('Terminated 1 spot VM');
  await markContext.close();

  // Tom's bell counts it, on any page.
  await page.reload();
  await expect.poll(() => unreadCount(page)).toBe(before + 1);
  // Counted on the server: the first HTML of any page already shows it, and the list.
  expect(await (await page.context().request.get('/')).text()).toContain(`aria-label="Notifications, ${before + 1} unread"`);
  expect(await (await page.context().request.get('/notifications')).text()).toContain(`data-notification-id="`);
  await page.getByTestId('notification-bell').click();
  await expect(page).toHaveURL(/\/notifications$/);
  const row = page.locator(`[data-notification-id]`, { hasText: vmId });
  await expect(row).toContainText('acme-h100-12');
  await expect(row).toContainText('gpu-0');
  await expect(row).toContainText('Terminated: its spot capacity was reclaimed');
  await expect(row).toContainText('Reason given: “Nimbus needs gpu-0 back”');
  // Never who holds the capacity, nor the reservation.
  await expect(row).not.toContainText('org_helix');
  await expect(row).not.toContainText('res-nimbus-fleet-12');
  await page.screenshot({ path: 'test-results/notifications.png' });

  // The VM's own page: terminated, when, and why.
  await row.getByRole('link', { name: vmId }).click();
  await expect(page.getByRole('heading', { name: vmId })).toBeVisible();
  await expect(page.getByTestId('vm-status')).toHaveText('reclaimed');
  await expect(page.locator('[data-field="Node"]')).toHaveText('acme-h100-12');
  await expect(page.locator('[data-field="Units"]')).toHaveText('gpu-0');
  await expect(page.locator('[data-field="Tier"]')).toHaveText('spot');
  await expect(page.locator('[data-field="Terminated"]')).toContainText('UTC');
  await expect(page.locator('[data-field="Why it ended"]')).toHaveText('Reclaimed: the capacity holder took its spot units back');
  await expect(page.locator('[data-field="Org"]')).toHaveText('Orbit Labs org_orbit');
  await page.screenshot({ path: 'test-results/vm-page.png' });

  // Mark it read: the row says so and the bell drops by one.
  await page.goBack();
  await row.getByRole('button', { name: 'Mark as read' }).click();
  await expect(row.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await expect(row.locator('td').last()).toHaveText('read');
  await expect.poll(() => unreadCount(page)).toBe(before);
  await page.reload();
  await expect(row.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  expect(await unreadCount(page)).toBe(before);
});

test('another org sees neither the notification nor the VM’s org', async ({ page }) => {
  // Ana (Nimbus, the audience) has no notifications of Orbit's; Orbit's VMs show without their org.
  await signIn(page, 'ana@nimbus.example');
  await page.goto('/notifications');
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(page.getByTestId('notification-table')).not.toContainText('vm-orbit');
  await page.goto('/vms/vm-orbit-train-02');
  await expect(page.getByText('was not found, or you may not see it')).toBeVisible();
});
