import { expect, test } from '@playwright/test';
import { readState } from '../support/state';
import { signIn, unit } from './support';

test('a managing-org user previews and reclaims released units with a spot VM', async ({ page }) => {
  await signIn(page, 'mark@helix.example');
  await expect(page.getByTestId('acting-org')).toContainText('org_helix');
  await page.getByRole('link', { name: /Acme H100 #01/ }).click();
  await expect(page.getByRole('heading', { name: /Acme H100 #01/ })).toBeVisible();
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'spot-occupied');

  // Click gpu-0, shift-click gpu-2: the range gpu-0 … gpu-2.
  await unit(page, 'gpu-0').click();
  await unit(page, 'gpu-2').click({ modifiers: ['Shift'] });
  for (const id of ['gpu-0', 'gpu-1', 'gpu-2']) await expect(unit(page, id)).toHaveAttribute('aria-pressed', 'true');
  await expect(unit(page, 'gpu-3')).toHaveAttribute('aria-pressed', 'false');

  await page.getByRole('button', { name: 'Reclaim…' }).click();
  const dialog = page.getByRole('dialog');
  const terminate = dialog.getByTestId('preview-terminate');
  await expect(terminate.locator('[data-vm-id]')).toHaveCount(1);
  await expect(terminate.locator('[data-vm-id="vm-orbit-train-01"]')).toContainText('gpu-0, gpu-1');
  await expect(terminate.locator('[data-vm-id="vm-orbit-train-01"]')).toContainText('started');
  await expect(dialog.getByTestId('preview-skip')).toContainText('None.');
  await dialog.getByLabel(/Reason/).fill('Nimbus needs the capacity back');
  await page.screenshot({ path: 'test-results/reclaim-preview.png' });
  await dialog.getByRole('button', { name: 'Terminate 1 spot VM and reclaim 3 units' }).click();

  await expect(dialog.getByTestId('reclaim-summary')).toContainText('Terminated 1 spot VM');
  await expect(dialog.getByTestId('reclaim-summary').locator('[data-vm-id="vm-orbit-train-01"]')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  for (const id of ['gpu-0', 'gpu-1', 'gpu-2']) await expect(unit(page, id)).toHaveAttribute('data-state', 'reserved');
  await expect(page.getByTestId('vm-table').locator('[data-vm-id="vm-orbit-train-01"]')).toHaveCount(0);
  await expect(page.locator('[data-reservation-id="res-nimbus-01"]').getByTestId('released-units')).toHaveText('—');
});

test('an audience user sees the grid but is offered no reclaim', async ({ page }) => {
  await signIn(page, 'ana@nimbus.example');
  await page.goto('/nodes/acme-h100-01');
  await expect(unit(page, 'gpu-3')).toHaveAttribute('data-state', /occupied|reserved/);
  await expect(page.locator('[data-unit-id]')).toHaveCount(8);
  await expect(page.locator('[data-reservation-id="res-nimbus-01"]')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reclaim…' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Select all released' })).toHaveCount(0);
  await unit(page, 'gpu-3').click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a changed eviction set between preview and confirm shows the new set and asks again', async ({ page, request }) => {
  const state = readState();
  await signIn(page, 'mark@helix.example');
  await page.goto('/nodes/acme-h100-09');
  await page.getByRole('button', { name: 'Select all released' }).click();
  await expect(unit(page, 'gpu-2')).toHaveAttribute('aria-pressed', 'true');
  await expect(unit(page, 'gpu-3')).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Reclaim…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('preview-terminate').locator('[data-vm-id]')).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: 'Terminate 1 spot VM and reclaim 2 units' })).toBeEnabled();

  // Meanwhile a tenant places a spot VM on the idle released unit, through the public API.
  const placed = await request.post('/v1/vms', {
    headers: { authorization: `Bearer ${state.keys.org_orbit}` },
    data: { nodeId: 'acme-h100-09', unitIds: ['gpu-2'], tier: 'spot' },
  });
  expect(placed.status()).toBe(201);
  const vm = await placed.json();

  await dialog.getByRole('button', { name: 'Terminate 1 spot VM and reclaim 2 units' }).click();
  await expect(dialog.getByTestId('eviction-changed')).toBeVisible();
  await expect(dialog.getByTestId('preview-terminate').locator(`[data-vm-id="${vm.id}"]`)).toContainText('gpu-2');
  await expect(dialog.getByTestId('preview-terminate').locator('[data-vm-id]')).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Terminate 2 spot VMs and reclaim 2 units' }).click();
  await expect(dialog.getByTestId('reclaim-summary')).toContainText('Terminated 2 spot VMs');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(unit(page, 'gpu-2')).toHaveAttribute('data-state', 'reserved');
  await expect(unit(page, 'gpu-3')).toHaveAttribute('data-state', 'reserved');
});

test('the org switcher changes the acting org and remembers it', async ({ page }) => {
  await signIn(page, 'sam@helix.example');
  await expect(page.getByTestId('acting-org')).toContainText('org_helix');
  await page.getByLabel('Switch org').selectOption('org_nimbus');
  await expect(page.getByTestId('acting-org')).toContainText('org_nimbus');
  await page.reload();
  await expect(page.getByTestId('acting-org')).toContainText('org_nimbus');
  await page.goto('/nodes/acme-h100-01');
  await expect(page.locator('[data-unit-id]')).toHaveCount(8);
  await expect(page.getByRole('button', { name: 'Reclaim…' })).toHaveCount(0);
  await page.getByLabel('Switch org').selectOption('org_helix');
  await expect(page.getByRole('button', { name: 'Reclaim…' })).toBeVisible();
});

test('signing out returns to the sign-in page; pages need a session', async ({ page }) => {
  await signIn(page, 'alice@acme.example');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto('/nodes/acme-h100-01');
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Email').fill('alice@acme.example');
  await page.getByLabel('Password').fill('wrong');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  // Signing in returns to the page that was asked for.
  await page.getByLabel('Email').fill('alice@acme.example');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/nodes\/acme-h100-01$/);
  await expect(page.locator('[data-unit-id]')).toHaveCount(8);
});

test('the grid selects by drag and by keyboard', async ({ page }) => {
  await signIn(page, 'mark@helix.example');
  await page.goto('/nodes/acme-h100-03');
  await expect(page.locator('[data-unit-id]')).toHaveCount(8);
  // Drag from gpu-1 to gpu-3: a box over one row.
  const from = await unit(page, 'gpu-1').boundingBox();
  const to = await unit(page, 'gpu-3').boundingBox();
  await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
  await page.mouse.down();
  await page.mouse.move(to!.x + to!.width / 2, to!.y + to!.height / 2, { steps: 8 });
  await page.mouse.up();
  for (const id of ['gpu-1', 'gpu-2', 'gpu-3']) await expect(unit(page, id)).toHaveAttribute('aria-pressed', 'true');
  await expect(unit(page, 'gpu-0')).toHaveAttribute('aria-pressed', 'false');
  await expect(unit(page, 'gpu-4')).toHaveAttribute('aria-pressed', 'false');
  // Keyboard: focus gpu-4, arrow right to gpu-5, space toggles it.
  await unit(page, 'gpu-4').focus();
  await page.keyboard.press('ArrowRight');
  await expect(unit(page, 'gpu-5')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(unit(page, 'gpu-5')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('unit-details')).toContainText('gpu-5');
});

test('the unit details line names the VM on a unit, read with GET …/units/{unitId} once the pointer rests on it', async ({ page, request }) => {
  // Tom's org places an on-demand VM on gpu-5 of acme-h100-04 (no other test uses that node).
  const placed = await request.post('/v1/vms', {
    headers: { authorization: `Bearer ${readState().keys.org_orbit}` },
    data: { nodeId: 'acme-h100-04', unitIds: ['gpu-5'], tier: 'on-demand' },
  });
  expect(placed.status()).toBe(201);
  const vm = ((await placed.json()) as { id: string }).id;
  await signIn(page, 'tom@orbit.example');
  await page.goto('/nodes/acme-h100-04');
  const details = page.getByTestId('unit-details');
  await unit(page, 'gpu-5').hover();
  await expect(details.getByTestId('unit-vm-detail')).toHaveText(new RegExp(`${vm}: on-demand, since `));
  // An idle unit names no VM; back on gpu-5 the answer read before is shown at once.
  await unit(page, 'gpu-0').hover();
  await expect(details).toContainText('gpu-0');
  await expect(details.getByTestId('unit-vm-detail')).toHaveCount(0);
  await unit(page, 'gpu-5').hover();
  await expect(details.getByTestId('unit-vm-detail')).toHaveText(new RegExp(`${vm}: on-demand`));
});

test('"2 GPUs back": the plan selects the fewest evictions with a reason for each, the selection can change, and Reclaim… confirms it', async ({ page }) => {
  // Borealis A100 #01: res-zephyr-11 has released gpu-2 and gpu-3, both under vm-orbit-train-11 (spot).
  await signIn(page, 'olivia@platform.example');
  await page.goto('/nodes/borealis-a100-01');
  const form = page.getByTestId('reclaim-plan-form');
  await form.getByLabel('GPUs back').fill('2');
  await form.getByRole('button', { name: 'Plan the fewest evictions' }).click();
  const plan = page.getByTestId('reclaim-plan');
  await expect(plan).toContainText('2 GPUs back from res-zephyr-11: reclaim gpu-2, gpu-3, terminating vm-orbit-train-11.');
  await expect(plan.locator('[data-reason-for="gpu-3"]')).toContainText('frees gpu-3 with gpu-2: vm-orbit-train-11 runs on both, and goes whole');
  await expect(plan.locator('[data-reason-for="vm-orbit-train-11"]')).toContainText('GPU-hours of running work');
  // The plan's units are selected on the grid.
  for (const id of ['gpu-2', 'gpu-3']) await expect(unit(page, id)).toHaveAttribute('aria-pressed', 'true');
  await expect(unit(page, 'gpu-0')).toHaveAttribute('aria-pressed', 'false');
  // Adjusting the selection is said, and the preview follows it.
  await unit(page, 'gpu-3').click();
  await expect(plan).toContainText('You changed the selection');
  await unit(page, 'gpu-3').click();
  await page.getByRole('button', { name: 'Reclaim…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('preview-terminate').locator('[data-vm-id="vm-orbit-train-11"]')).toBeVisible();
  await dialog.getByRole('button', { name: 'Terminate 1 spot VM and reclaim 2 units' }).click();
  await expect(dialog.getByTestId('reclaim-summary')).toContainText('Terminated 1 spot VM');
  // Asking again: nothing of res-zephyr-11 is on the market any more.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await form.getByRole('button', { name: 'Plan the fewest evictions' }).click();
  await expect(form.getByRole('alert')).toContainText('Only 0 of the candidate units are on the market now');
});
