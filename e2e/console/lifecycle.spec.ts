import { expect, test, type Page } from '@playwright/test';
import { readState } from '../support/state';
import { signIn, unit } from './support';

// The reservation lifecycle in the console, each step by the persona who does it in real life
// (docs/product.md §6): the owner reserves, the managing org releases and reclaims, the operator
// changes a topology and re-affirms. Each test uses nodes no other test touches.

async function pickOrg(page: Page, dialogLabel: RegExp, search: string, name: string) {
  const dialog = page.getByRole('dialog');
  const group = dialog.getByRole('group', { name: dialogLabel });
  await group.getByLabel(/Search orgs/).fill(search);
  await group.getByRole('option', { name: `Add ${name}` }).click();
}

test('owner reserves for a customer with a managing org; the managing org releases, a spot VM lands, it reclaims with the preview', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  const state = readState();
  await signIn(page, 'alice@acme.example');
  await page.goto('/nodes/acme-h100-07');
  await unit(page, 'gpu-0').click();
  await unit(page, 'gpu-3').click({ modifiers: ['Shift'] });
  await page.getByRole('button', { name: 'Reserve…' }).click();
  const reserve = page.getByRole('dialog', { name: /Reserve 4 units of acme-h100-07/ });
  await pickOrg(page, /Audience/, 'Nimbus', 'Nimbus AI');
  await pickOrg(page, /Managing orgs/, 'Helix', 'Helix Capacity Partners');
  await reserve.getByLabel('Contract reference').fill('MSA-E2E-7');
  await reserve.getByRole('button', { name: 'Reserve 4 units' }).click();
  await expect(reserve).toBeHidden();
  for (const id of ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']) await expect(unit(page, id)).toHaveAttribute('data-state', 'reserved');

  // The managing org releases two of them, after the preview.
  const helix = await browser.newContext({ baseURL });
  const mark = await helix.newPage();
  await signIn(mark, 'mark@helix.example');
  await mark.goto('/nodes/acme-h100-07');
  await unit(mark, 'gpu-0').click();
  await unit(mark, 'gpu-1').click({ modifiers: ['Shift'] });
  await expect(mark.getByRole('button', { name: 'Reserve…' })).toHaveCount(0);
  await mark.getByRole('button', { name: 'Release…' }).click();
  const release = mark.getByRole('dialog');
  await expect(release.getByTestId('release-preview')).toContainText('gpu-0, gpu-1');
  await release.getByRole('button', { name: 'Release 2 units to the spot market' }).click();
  await expect(release.getByTestId('release-summary')).toBeVisible();
  await release.getByRole('button', { name: 'Close' }).click();
  await expect(unit(mark, 'gpu-0')).toHaveAttribute('data-state', 'released');

  // A spot tenant's scheduler places a VM on a released unit (over the API).
  const placed = await request.post('/v1/vms', {
    headers: { authorization: `Bearer ${state.keys.org_orbit}` },
    data: { nodeId: 'acme-h100-07', unitIds: ['gpu-0'], tier: 'spot' },
  });
  expect(placed.status()).toBe(201);
  const vmId = ((await placed.json()) as { id: string }).id;

  // The managing org reclaims: the preview names the VM, the confirm says what it does.
  await mark.reload();
  await expect(unit(mark, 'gpu-0')).toHaveAttribute('data-state', 'spot-occupied');
  await unit(mark, 'gpu-0').click();
  await unit(mark, 'gpu-1').click({ modifiers: ['Shift'] });
  await mark.getByRole('button', { name: 'Reclaim…' }).click();
  const reclaim = mark.getByRole('dialog');
  await expect(reclaim.getByTestId('preview-terminate').locator(`[data-vm-id="${vmId}"]`)).toBeVisible();
  await reclaim.getByRole('button', { name: 'Terminate 1 spot VM and reclaim 2 units' }).click();
  await expect(reclaim.getByTestId('reclaim-summary')).toContainText('Terminated 1 spot VM');
  await reclaim.getByRole('button', { name: 'Close' }).click();
  await expect(unit(mark, 'gpu-0')).toHaveAttribute('data-state', 'reserved');
  await helix.close();

  // The owner edits it (a later end, another contract ref) and then cancels it.
  await page.reload();
  const card = page.locator('[data-reservation-id]').filter({ hasText: 'MSA-E2E-7' });
  await card.getByRole('button', { name: /^Edit / }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Contract reference').fill('MSA-E2E-7b');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const edited = page.locator('[data-reservation-id]').filter({ hasText: 'MSA-E2E-7b' });
  await edited.getByRole('button', { name: /^Cancel reservation / }).click();
  const cancel = page.getByRole('dialog');
  await expect(cancel.getByTestId('cancel-consequences')).toContainText('Running VMs on them keep running');
  await cancel.getByRole('button', { name: 'Cancel reservation' }).click();
  await expect(cancel).toBeHidden();
  await expect(edited).toContainText('cancelled');
  await expect(unit(page, 'gpu-2')).toHaveAttribute('data-state', 'free');
});

test('the audience is offered none of the managing actions', async ({ page }) => {
  await signIn(page, 'ana@nimbus.example');
  await page.goto('/nodes/acme-h100-02');
  await expect(page.locator('[data-unit-id]')).toHaveCount(8);
  for (const name of ['Reserve…', 'Release…', 'Reclaim…', 'Change topology…']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Edit|Cancel reservation|Re-affirm) / })).toHaveCount(0);
});

test('operator changes a topology; the reservation shows the diff; the operator re-affirms it', async ({ page, request }) => {
  const state = readState();
  const created = await request.post('/v1/nodes/acme-h100-11/reservations', {
    headers: { authorization: `Bearer ${state.keys.org_acme}` },
    data: { reservedUnitIds: ['gpu-0', 'gpu-1'], allowedOrgIds: ['org_nimbus'], contractRef: 'TOPO-E2E' },
  });
  expect(created.status()).toBe(201);
  await signIn(page, 'olivia@platform.example');
  await page.goto('/nodes/acme-h100-11');
  await page.getByRole('button', { name: 'Change topology…' }).click();
  const topo = page.getByRole('dialog');
  await topo.getByLabel('Unit 2 memory in GiB').fill('94');
  await topo.getByRole('button', { name: 'Save topology' }).click();
  await expect(topo).toBeHidden();
  const card = page.locator('[data-reservation-id]').filter({ hasText: 'TOPO-E2E' });
  await expect(card).toContainText('needs-review');
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'withheld');

  await card.getByRole('button', { name: /^Re-affirm / }).click();
  const reaffirm = page.getByRole('dialog');
  await expect(reaffirm.getByTestId('topology-diff').locator('[data-unit-diff="gpu-1"]')).toContainText('changed');
  await reaffirm.getByLabel(/Reason/).fill('memory upgrade checked');
  await reaffirm.getByRole('button', { name: 'Re-affirm reservation' }).click();
  await expect(reaffirm).toBeHidden();
  await expect(card).toContainText('active');
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'reserved');
});

test('two tabs: after switching org in one, the other cannot act as the old org and reloads to the new one', async ({ page, context }) => {
  await signIn(page, 'sam@helix.example');
  await page.goto('/nodes/acme-h100-02');
  await expect(page.getByTestId('acting-org')).toContainText('org_helix');
  const other = await context.newPage();
  await other.goto('/nodes/acme-h100-02');
  await other.getByLabel('Switch org').selectOption('org_nimbus');
  await expect(other.getByTestId('acting-org')).toContainText('org_nimbus');
  // The first tab still shows Helix until its next refresh (every 5 s) renders as Nimbus: the
  // page then reloads (ActingOrgProvider), so nothing typed or selected for Helix is ever sent as
  // Nimbus; a call it makes as Helix meanwhile is refused (409 acting_org_changed) and reloads it.
  await expect(page.getByTestId('acting-org')).toContainText('org_nimbus', { timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Reclaim…' })).toHaveCount(0);
  await other.getByLabel('Switch org').selectOption('org_helix');
});

test('a tenant terminates its own VM from the node page; the owner is offered no Terminate on it', async ({ page, browser, baseURL }) => {
  const owner = await browser.newContext({ baseURL });
  const alice = await owner.newPage();
  await signIn(alice, 'alice@acme.example');
  await alice.goto('/nodes/acme-h100-05');
  await expect(alice.getByTestId('vm-table').locator('[data-vm-id="vm-orbit-od-5"]')).toBeVisible();
  await expect(alice.getByRole('button', { name: 'Terminate vm-orbit-od-5…' })).toHaveCount(0);
  await owner.close();

  await signIn(page, 'tom@orbit.example');
  await page.goto('/nodes/acme-h100-05');
  await page.getByRole('button', { name: 'Terminate vm-orbit-od-5…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Terminate vm-orbit-od-5' });
  await dialog.getByRole('button', { name: 'Terminate VM' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('vm-table').locator('[data-vm-id="vm-orbit-od-5"]')).toHaveCount(0);
  await expect(unit(page, 'gpu-6')).toHaveAttribute('data-state', 'free');
});
