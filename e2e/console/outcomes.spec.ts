import { expect, test, type Page } from '@playwright/test';
import { asOrg, freshNode, signIn, unit } from './support';

// Issue 20.1, honest outcomes (docs/product.md §6): actions offered only where they can act, a
// preview that says when there is nothing to do, a confirm that finds the work done says so (and
// who did it), and every dialog ends by saying what changed. Each test registers its own node.
// A test that covers several defects checks each with `expect.soft` where later steps do not
// depend on it, so a regression names every defect it brings back, not only the first.

type Created = { id: string };
const outcome = (page: Page) => page.getByTestId('outcome-banner');

type Api = Parameters<typeof freshNode>[0];

/** The owner reserves gpu-0…gpu-3 of `nodeId` for Nimbus, managed by Helix, from now or `startsAt`. @returns the reservation's id. */
async function reserveAll(request: Api, nodeId: string, startsAt?: string): Promise<string> {
  const body = {
    reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'],
    allowedOrgIds: ['org_nimbus'],
    managingOrgIds: ['org_helix'],
    ...(startsAt ? { startsAt } : {}),
  };
  return (await asOrg<Created>(request, 'org_acme', 'post', `/v1/nodes/${nodeId}/reservations`, body, 201)).id;
}

/** A node of its own, all reserved as `reserveAll` does. */
async function reservedNode(request: Api, prefix: string) {
  const nodeId = await freshNode(request, prefix);
  return { nodeId, reservationId: await reserveAll(request, nodeId) };
}

test('reclaim is offered only on units it can act on; nothing to reclaim offers no confirm; a spot VM on a reserved unit is still evicted', async ({
  page,
  request,
}) => {
  await signIn(page, 'mark@helix.example');
  // A reservation that has not started holds nothing yet: its (free) units offer no reclaim.
  await page.goto('/nodes/borealis-a100-02');
  await unit(page, 'gpu-0').click();
  await expect.soft(page.getByRole('button', { name: 'Reclaim…' })).toBeDisabled();
  await expect.soft(page.getByTestId('selection-hint')).toContainText('does not hold these units yet');

  // A spot VM that started before the reservation runs on a reserved unit (reserved from a
  // moment later, as the API allows over a running VM); a reserved VM on another.
  const nodeId = await freshNode(request, 'e2e-honest');
  const spot = await asOrg<Created>(request, 'org_orbit', 'post', '/v1/vms', { nodeId, unitIds: ['gpu-0'], tier: 'spot' }, 201);
  const reservationId = await reserveAll(request, nodeId, new Date(Date.now() + 2_000).toISOString());
  await page.waitForTimeout(2_500);
  const reserved = await asOrg<Created>(request, 'org_nimbus', 'post', '/v1/vms', { nodeId, unitIds: ['gpu-1'], tier: 'reserved', reservationId }, 201);

  await page.goto(`/nodes/${nodeId}`);
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'reserved-occupied');
  // Idle reserved units were never on the market: nothing to reclaim there.
  await unit(page, 'gpu-2').click();
  await expect.soft(page.getByRole('button', { name: 'Reclaim…' })).toBeDisabled();
  await unit(page, 'gpu-2').click();

  // The reserved VM's unit: the preview says there is nothing to reclaim and offers no confirm.
  await unit(page, 'gpu-1').click();
  await page.getByRole('button', { name: 'Reclaim…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('preview-skip').locator(`[data-vm-id="${reserved.id}"]`)).toBeVisible();
  await expect.soft(dialog.getByRole('button', { name: /Reclaim|Terminate/ })).toHaveCount(0);
  await expect.soft(dialog.getByTestId('nothing-to-reclaim')).toContainText('Nothing to reclaim');
  await dialog.getByRole('button', { name: /^(Close|Cancel)$/ }).click();
  await unit(page, 'gpu-1').click();

  // The spot VM's unit, never released: the reclaim terminates the VM and says only that.
  await unit(page, 'gpu-0').click();
  await page.getByRole('button', { name: 'Reclaim…' }).click();
  await expect(dialog.getByTestId('preview-terminate').locator(`[data-vm-id="${spot.id}"]`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Terminate 1 spot VM', exact: true }).click();
  await expect(dialog.getByTestId('reclaim-summary')).toContainText('Terminated 1 spot VM.');
  await expect(dialog.getByTestId('reclaim-summary')).not.toContainText('Reclaimed');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'reserved');
  await expect(unit(page, 'gpu-0')).toHaveAttribute('aria-pressed', 'false');
});

test('a confirm that finds the units already reclaimed says so, with when and by whom, and sends nothing', async ({ page, request }) => {
  const { nodeId, reservationId } = await reservedNode(request, 'e2e-already');
  await asOrg(request, 'org_helix', 'post', `/v1/nodes/${nodeId}/reservations/${reservationId}/release`, { unitIds: ['gpu-0', 'gpu-1'] });
  await signIn(page, 'mark@helix.example');
  await page.goto(`/nodes/${nodeId}`);
  await page.getByRole('button', { name: 'Select all released' }).click();
  await page.getByRole('button', { name: 'Reclaim…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Reclaim 2 units' })).toBeEnabled();

  // Meanwhile the node owner takes them back over the API.
  await asOrg(request, 'org_acme', 'post', `/v1/nodes/${nodeId}/reservations/${reservationId}/reclaim`, {
    unitIds: ['gpu-0', 'gpu-1'],
    reason: 'owner needs them',
  });
  let reclaimsSent = 0;
  page.on('request', (r) => {
    if (r.url().includes('reservations.reclaim') && r.method() === 'POST' && !(r.postData() ?? '').includes('"dryRun":true')) reclaimsSent += 1;
  });
  await dialog.getByRole('button', { name: 'Reclaim 2 units' }).click();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
  await expect.soft(dialog, 'no claim of a reclaim this confirm did not make').not.toContainText('Reclaimed 2 units');
  const already = dialog.getByTestId('already-reclaimed');
  await expect.soft(already).toContainText('Already reclaimed');
  // The owner acted: §2 shows a node owner's org to the reservation's managing org.
  await expect.soft(already).toContainText('org_acme');
  await expect.soft(already).toContainText('via api');
  await expect.soft(already).toContainText('UTC');
  expect.soft(reclaimsSent, 'reclaim calls sent after the work was done').toBe(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'reserved');
});

test('Reserve, Edit and Cancel end by saying what changed, with a link; the selection is cleared and focus is kept', async ({ page, request }) => {
  const nodeId = await freshNode(request, 'e2e-outcome');
  await signIn(page, 'alice@acme.example');
  await page.goto(`/nodes/${nodeId}`);
  await unit(page, 'gpu-0').click();
  await unit(page, 'gpu-1').click({ modifiers: ['Shift'] });
  await page.getByRole('button', { name: 'Reserve…' }).click();
  const dialog = page.getByRole('dialog');
  const audience = dialog.getByRole('group', { name: /Audience/ });
  await audience.getByLabel(/Search orgs/).fill('Nimbus');
  await audience.getByRole('option', { name: 'Add Nimbus AI' }).click();
  await dialog.getByRole('button', { name: 'Reserve 2 units' }).click();
  await expect(dialog).toBeHidden();
  const card = page.locator('[data-reservation-id]');
  await expect(card).toHaveCount(1);
  const reservationId = (await card.getAttribute('data-reservation-id'))!;
  await expect.soft(outcome(page)).toContainText(`Reserved 2 units of ${nodeId} (gpu-0, gpu-1) as ${reservationId}, from now.`);
  await expect.soft(outcome(page).getByRole('link', { name: `Open ${reservationId}` })).toBeVisible();
  await expect.soft(unit(page, 'gpu-0'), 'the selection is cleared').toHaveAttribute('aria-pressed', 'false');
  await expect.soft(unit(page, 'gpu-1')).toHaveAttribute('aria-pressed', 'false');
  expect.soft(await page.evaluate(() => document.activeElement !== document.body), 'focus is somewhere, not lost to the page').toBe(true);

  await card.getByRole('button', { name: /^Edit / }).click();
  await dialog.getByLabel('Contract reference').fill('MSA-OUTCOME');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect.soft(outcome(page)).toContainText(`Saved ${reservationId}: contract reference MSA-OUTCOME.`);
  await expect.soft(card.getByRole('button', { name: /^Edit / }), 'focus returns to the opener').toBeFocused();

  await card.getByRole('button', { name: /^Cancel reservation / }).click();
  await dialog.getByRole('button', { name: 'Cancel reservation' }).click();
  await expect(dialog).toBeHidden();
  await expect(outcome(page)).toContainText(`Cancelled ${reservationId}: it no longer holds gpu-0, gpu-1`);
  await outcome(page)
    .getByRole('link', { name: `Open ${reservationId}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/nodes/${nodeId}/reservations/${reservationId}$`));
});

test('Terminate and Register node end by saying what changed; the new node is a link away, wherever the fleet lists it', async ({ page, request }) => {
  await signIn(page, 'olivia@platform.example');
  const nodeId = await freshNode(request, 'e2e-term');
  const vm = await asOrg<Created>(request, 'org_orbit', 'post', '/v1/vms', { nodeId, unitIds: ['gpu-3'], tier: 'spot' }, 201);
  await page.goto(`/nodes/${nodeId}`);
  await page.getByRole('button', { name: `Terminate ${vm.id}…` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Terminate VM' }).click();
  await expect(dialog).toBeHidden();
  await expect.soft(outcome(page)).toContainText(`Terminated ${vm.id}: gpu-3 of ${nodeId} are free of it.`);
  await expect.soft(outcome(page).getByRole('link', { name: `Open ${vm.id}` })).toHaveAttribute('href', `/vms/${vm.id}`);

  await page.goto('/');
  const id = `e2e-reg-${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Register node…' }).click();
  await dialog.getByLabel('Node id').fill(id);
  await dialog.getByLabel('Name').fill('E2E registered');
  const owner = dialog.getByRole('group', { name: /Owner org/ });
  await owner.getByLabel(/Search orgs/).fill('Acme');
  await owner.getByRole('option', { name: /^Add Acme/ }).click();
  await dialog.getByRole('button', { name: 'Register node' }).click();
  await expect(dialog).toBeHidden();
  await expect(outcome(page)).toContainText(`Registered E2E registered (${id}) with 8 units, owned by org_acme.`);
  await outcome(page)
    .getByRole('link', { name: `Open ${id}` })
    .click();
  await expect(page.getByRole('heading', { name: 'E2E registered' })).toBeVisible();
});

test('Re-affirm after removing a unit that left the topology goes on to the re-affirm step, and says what it did', async ({ page, request }) => {
  const nodeId = await freshNode(request, 'e2e-reaffirm');
  const r = await asOrg<Created>(
    request,
    'org_acme',
    'post',
    `/v1/nodes/${nodeId}/reservations`,
    { reservedUnitIds: ['gpu-2', 'gpu-3'], allowedOrgIds: ['org_nimbus'] },
    201,
  );
  await asOrg(request, 'org_platform', 'put', `/v1/nodes/${nodeId}/topology`, {
    units: ['gpu-0', 'gpu-1', 'gpu-2'].map((id) => ({ id, model: 'H100-SXM5', memoryGiB: 80 })),
  });
  await signIn(page, 'olivia@platform.example');
  await page.goto(`/nodes/${nodeId}`);
  await page.getByRole('button', { name: `Re-affirm ${r.id}…` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('topology-diff')).toContainText('removed');
  await expect.soft(dialog, 'no error code on screen').not.toContainText('unit_missing');
  await dialog.getByRole('button', { name: 'Remove gpu-3 from the reservation' }).click();
  await expect(dialog.getByText(/Removed gpu-3/)).toBeVisible();
  await expect.soft(dialog.getByRole('alert'), 'a success is no alert').toHaveCount(0);
  await expect(dialog.getByLabel(/Reason/)).toBeVisible();
  await expect.soft(dialog.getByTestId('units-removed')).toContainText('Removed gpu-3 from');
  await dialog.getByLabel(/Reason/).fill('gpu-3 was retired');
  await dialog.getByRole('button', { name: 'Re-affirm reservation' }).click();
  await expect(dialog).toBeHidden();
  await expect(outcome(page)).toContainText(`Re-affirmed ${r.id} at topology generation 2: it grants gpu-2 again.`);
  await expect(page.locator(`[data-reservation-id="${r.id}"]`)).toContainText('active');
});

test('an org switch in another tab keeps the open dialog and what was typed, and says what happened', async ({ page, context, request }) => {
  test.setTimeout(45_000);
  const { nodeId } = await reservedNode(request, 'e2e-switch');
  await signIn(page, 'sam@helix.example');
  await page.goto(`/nodes/${nodeId}`);
  await expect(page.getByTestId('acting-org')).toContainText('org_helix');
  await unit(page, 'gpu-0').click();
  await page.getByRole('button', { name: 'Release…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/Reason/).fill('typed before the switch');

  const other = await context.newPage();
  try {
    await other.goto('/');
    await other.getByLabel('Switch org').selectOption('org_nimbus');
    await expect(other.getByTestId('acting-org')).toContainText('org_nimbus');
    // The first tab learns of it at its next refresh (every 5 s) and keeps the dialog.
    await expect(dialog.getByTestId('org-switched')).toContainText('You switched to Nimbus AI in another tab', { timeout: 15_000 });
    await expect(dialog.getByLabel(/Reason/)).toHaveValue('typed before the switch');
    await expect(dialog.getByRole('button', { name: /Release 1 unit/ })).toBeDisabled();
    // Closing it reloads the page as the new org.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('acting-org')).toContainText('org_nimbus');
  } finally {
    await other.getByLabel('Switch org').selectOption('org_helix');
    await other.close();
  }
});
