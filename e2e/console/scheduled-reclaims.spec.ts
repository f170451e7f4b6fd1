import { expect, test, type Browser, type Page } from '@playwright/test';
import { asOrg, freshNode, managedSpotNode, signIn, unit } from './support';

// Issue 22: a managing org schedules a reclaim in the console; the grid, the reservation page,
// and the spot tenant's VM list, VM page and notifications all show the deadline; reschedule and
// cancel are told again. The scheduling person's browser runs in Berlin, but the console reads and
// says times in UTC until they pick Local time (issue 23; e2e/console/time.spec.ts has that), so
// what they type is read as UTC, never silently in the browser's zone.
const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
/** As the console says an instant (components/format.ts formatDateTime). */
const utc = (iso: string) => `${dateTime.format(new Date(iso))} UTC`;
/** `ms` from now, to the minute (a datetime-local has no seconds), as an instant. */
const minuteFromNow = (ms: number) => new Date(Math.floor((Date.now() + ms) / 60_000) * 60_000);
/** An instant as a datetime-local value in UTC, the zone the console reads it in by default. */
const utcInput = (at: Date) => at.toISOString().slice(0, 16);

const HOUR = 3_600_000;

async function signedIn(browser: Browser, baseURL: string | undefined, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, timezoneId: ZONE });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

test('a managing org schedules a reclaim, reschedules and cancels it; the spot tenant sees the deadline on its VM and is told each time', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  // A node of its own: Acme (the owner) reserves it for Nimbus, managed by Helix; Helix releases
  // gpu-2 and gpu-3; Orbit runs a spot VM on gpu-2 (all over the API, as programs would).
  const { nodeId, reservationId, vmId } = await managedSpotNode(request, 'sched');

  // Mark (Helix) selects the released units and opens Reclaim…, then Schedule….
  await signIn(page, 'mark@helix.example');
  await page.goto(`/nodes/${nodeId}`);
  await unit(page, 'gpu-2').click();
  await unit(page, 'gpu-3').click({ modifiers: ['Shift'] });
  await page.getByRole('button', { name: 'Reclaim…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('preview-terminate').locator(`[data-vm-id="${vmId}"]`)).toBeVisible();
  await dialog.getByLabel('Schedule…').check();
  await expect(dialog.getByRole('heading', { name: `Schedule a reclaim of 2 units of ${reservationId}` })).toBeVisible();
  await expect(dialog.getByLabel('Reclaim at (UTC)')).toBeVisible();
  await expect(dialog.getByTestId('schedule-told').locator(`[data-vm-id="${vmId}"]`)).toBeVisible();
  const schedule = dialog.getByRole('button', { name: 'Schedule the reclaim of 2 units' });

  // What the form can tell, it tells before sending: a time in the past, beside the field.
  const time = dialog.getByLabel(/Reclaim at/);
  await time.fill(utcInput(minuteFromNow(-HOUR)));
  await schedule.click();
  await expect(dialog.locator('[data-field-error]')).toHaveText('Reclaim at must be in the future.');

  // In three hours, typed in UTC (no "That is …" line: the field is in UTC already): the summary says it, and that Orbit was told.
  const first = minuteFromNow(3 * HOUR + 5 * 60_000);
  await time.fill(utcInput(first));
  await expect(dialog.getByText(/^That is /)).toHaveCount(0);
  // What was said of the old time goes with it.
  await expect(dialog.locator('[data-field-error], [data-dialog-error]')).toHaveCount(0);
  await dialog.getByLabel(/Reason/).fill('Nimbus needs the node back for its training run');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: '/tmp/ui22/dialog-1440.png' });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '/tmp/ui22/dialog-375.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await schedule.click();
  const summary = dialog.getByTestId('schedule-summary');
  await expect(summary).toContainText(`Scheduled a reclaim of gpu-2, gpu-3 at ${utc(first.toISOString())}.`);
  await expect(summary).toContainText('1 spot VM’s tenant was told.');
  await page.screenshot({ path: '/tmp/ui22/dialog-scheduled.png' });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // The grid: a clock on both units, the countdown in the cell's words; the panel says it too.
  for (const id of ['gpu-2', 'gpu-3']) {
    await expect(unit(page, id).getByTestId('reclaim-badge')).toBeVisible();
    await expect(unit(page, id)).toHaveAttribute('aria-label', /reclaim in (2 h \d+ min|3 h( \d+ min)?)/);
  }
  await expect(unit(page, 'gpu-1').getByTestId('reclaim-badge')).toHaveCount(0);
  await expect(page.getByTestId('scheduled-units')).toContainText(/gpu-2, gpu-3: reclaim in (2 h \d+ min|3 h)/);
  await page.getByRole('region', { name: 'Units', exact: true }).screenshot({ path: '/tmp/ui22/grid-badges.png' });
  // The same units cannot be in two pending schedules: said in words, with what to do.
  await unit(page, 'gpu-2').click();
  await unit(page, 'gpu-3').click({ modifiers: ['Shift'] });
  await page.getByRole('button', { name: 'Reclaim…' }).click();
  await dialog.getByLabel('Schedule…').check();
  await dialog.getByLabel(/Reclaim at/).fill(utcInput(minuteFromNow(5 * HOUR)));
  await dialog.getByRole('button', { name: 'Schedule the reclaim of 2 units' }).click();
  await expect(dialog.locator('[data-dialog-error]')).toHaveText(/^gpu-2 and gpu-3 are already in a pending scheduled reclaim: reschedule or cancel that one/);
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();

  // The reservation page lists it: time, units, status, who, why.
  await page.goto(`/nodes/${nodeId}/reservations/${reservationId}`);
  const row = page.getByTestId('schedule-table').locator('[data-schedule-id]');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-schedule-status', 'pending');
  await expect(row).toContainText(utc(first.toISOString()));
  await expect(row).toContainText('gpu-2, gpu-3');
  // Who: the org by name, and the person (Helix's own schedule, so it may see who).
  await expect(row).toContainText('Helix Capacity Partners org_helix');
  await expect(row).toContainText('a person of the org (user_mark)');
  await expect(row).toContainText('“Nimbus needs the node back for its training run”');
  // The first HTML holds the list (rendered on the server).
  expect(await (await page.context().request.get(`/nodes/${nodeId}/reservations/${reservationId}`)).text()).toContain('data-schedule-id="');

  // Reschedule… to two days ahead.
  const second = minuteFromNow(50 * HOUR);
  await row.getByRole('button', { name: 'Reschedule the reclaim of gpu-2, gpu-3…' }).click();
  const reschedule = page.getByRole('dialog');
  await expect(reschedule.getByLabel('Reclaim at (UTC)')).toBeVisible();
  await expect(reschedule.getByLabel(/Reclaim at/)).toHaveValue(utcInput(first));
  await reschedule.getByLabel(/Reclaim at/).fill(utcInput(second));
  await reschedule.getByRole('button', { name: 'Reschedule the reclaim' }).click();
  await expect(reschedule).toBeHidden();
  await expect(page.getByTestId('outcome-banner')).toContainText(
    `Rescheduled the reclaim of gpu-2, gpu-3 from ${utc(first.toISOString())} to ${utc(second.toISOString())}`,
  );
  await expect(row).toContainText(utc(second.toISOString()));
  await page.getByTestId('outcome-banner').getByRole('button', { name: 'Dismiss' }).click();
  const section = page.getByRole('region', { name: 'Scheduled reclaims' });
  await section.screenshot({ path: '/tmp/ui22/reservation-schedules.png' });
  await page.setViewportSize({ width: 375, height: 800 });
  await section.screenshot({ path: '/tmp/ui22/reservation-schedules-375.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: '/tmp/ui22/reservation-page.png', fullPage: true });

  // Tom (Orbit) sees the deadline on his VM — the list, the VM page, the node page — and was told twice.
  const tom = await signedIn(browser, baseURL, 'tom@orbit.example');
  await tom.goto(`/vms?nodeId=${nodeId}`);
  const deadline = new RegExp(`^Reclaim at ${utc(second.toISOString())} \\(in 2 days( \\d h)?\\)$`);
  await expect(tom.locator(`[data-vm-id="${vmId}"]`).getByTestId('vm-reclaim-at')).toHaveText(deadline);
  await tom.goto(`/vms/${vmId}`);
  await expect(tom.locator('[data-field="Reclaim at"]').getByTestId('vm-reclaim-at')).toHaveText(deadline);
  await tom.goto(`/nodes/${nodeId}`);
  await expect(tom.getByTestId('vm-table').locator(`[data-vm-id="${vmId}"]`).getByTestId('vm-reclaim-at')).toBeVisible();
  await expect(unit(tom, 'gpu-2')).toHaveAttribute('aria-label', new RegExp(`reclaim at ${utc(second.toISOString())}`));
  await tom.goto('/notifications');
  const notices = tom.locator('[data-notification-kind="vm.reclaim_scheduled"]', { hasText: vmId });
  await expect(notices).toHaveCount(2);
  await expect(notices.first()).toContainText(
    `Rescheduled from ${utc(first.toISOString())}: its spot capacity will be reclaimed at ${utc(second.toISOString())} (in 2 days`,
  );
  await expect(notices.first()).toContainText('Reason given: “Nimbus needs the node back for its training run”');
  await expect(notices.last()).toContainText(`Its spot capacity will be reclaimed at ${utc(first.toISOString())}`);
  // Never who holds the capacity, nor the reservation.
  await expect(notices.first()).not.toContainText('org_helix');
  await expect(notices.first()).not.toContainText(reservationId);
  await tom.screenshot({ path: '/tmp/ui22/tenant-notifications.png' });

  // Mark cancels it: the row says so, the grid's clock goes, Tom's VM carries no deadline and he is told.
  await row.getByRole('button', { name: 'Cancel the scheduled reclaim of gpu-2, gpu-3…' }).click();
  const cancel = page.getByRole('dialog');
  await expect(cancel.getByTestId('cancel-schedule-consequences')).toContainText(utc(second.toISOString()));
  await cancel.getByRole('button', { name: 'Cancel the scheduled reclaim' }).click();
  await expect(cancel).toBeHidden();
  await expect(page.getByTestId('outcome-banner')).toContainText(`Cancelled the reclaim of gpu-2, gpu-3 that was to run at ${utc(second.toISOString())}`);
  await expect(row).toHaveAttribute('data-schedule-status', 'cancelled');
  await expect(row.getByRole('button')).toHaveCount(0);
  await page.goto(`/nodes/${nodeId}`);
  await expect(unit(page, 'gpu-2')).toHaveAttribute('data-state', 'spot-occupied');
  await expect(page.locator('[data-testid="reclaim-badge"]')).toHaveCount(0);
  await tom.goto(`/vms/${vmId}`);
  await expect(tom.locator('[data-field="Reclaim at"]')).toHaveCount(0);
  await tom.goto('/notifications');
  await expect(notices).toHaveCount(3);
  await expect(notices.first()).toContainText(`The reclaim of its spot capacity planned for ${utc(second.toISOString())} is cancelled: the VM keeps running.`);
  await tom.context().close();
});

test('an audience org sees the reservation page without the schedule buttons', async ({ page, request }) => {
  const nodeId = await freshNode(request, 'sched-aud');
  const reservation = await asOrg<{ id: string }>(
    request,
    'org_acme',
    'post',
    `/v1/nodes/${nodeId}/reservations`,
    { reservedUnitIds: ['gpu-0', 'gpu-1'], allowedOrgIds: ['org_nimbus'], managingOrgIds: ['org_helix'] },
    201,
  );
  await asOrg(request, 'org_helix', 'post', `/v1/nodes/${nodeId}/reservations/${reservation.id}/release`, { unitIds: ['gpu-1'] });
  await asOrg(
    request,
    'org_helix',
    'post',
    `/v1/nodes/${nodeId}/reservations/${reservation.id}/scheduled-reclaims`,
    { unitIds: ['gpu-1'], at: new Date(Date.now() + 6 * HOUR).toISOString() },
    201,
  );
  await signIn(page, 'ana@nimbus.example');
  await page.goto(`/nodes/${nodeId}/reservations/${reservation.id}`);
  await expect(page.getByRole('heading', { name: new RegExp(reservation.id) })).toBeVisible();
  await expect(page.getByRole('button', { name: /Reschedule|Cancel schedule/ })).toHaveCount(0);
  await page.goto(`/nodes/${nodeId}`);
  await expect(unit(page, 'gpu-1').getByTestId('reclaim-badge')).toBeVisible();
});
