import { expect, test, type APIRequestContext } from '@playwright/test';
import { readState } from '../support/state';
import { signIn } from './support';

// The operator's topology dialogs send the generation they were showing (`expectedTopologyGen`,
// docs/product.md §5.4, §6): when another change lands between what the dialog showed and the
// confirm, the API answers 409 topology_changed, and the dialog shows the new diff and asks
// again — as Reclaim… does with a changed eviction set. Nodes acme-h100-10 and -14: no other
// test uses them.

type Unit = { id: string; model?: string; memoryGiB?: number; nvlinkDomain?: string };
const units = (memory: Record<string, number> = {}): Unit[] =>
  Array.from({ length: 8 }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: memory[`gpu-${i}`] ?? 80, nvlinkDomain: `nvl-${Math.floor(i / 4)}` }));

/** Another operator's change, over the API. */
async function putTopology(request: APIRequestContext, nodeId: string, memory: Record<string, number>) {
  const res = await request.put(`/v1/nodes/${nodeId}/topology`, {
    headers: { authorization: `Bearer ${readState().keys.org_platform}` },
    data: { units: units(memory) },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { topologyGen: number }).topologyGen;
}

test('Change topology…: a change saved meanwhile is shown against the edit, never silently undone', async ({ page, request }) => {
  await signIn(page, 'olivia@platform.example');
  await page.goto('/nodes/acme-h100-10');
  await page.getByRole('button', { name: 'Change topology…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the topology of acme-h100-10' });
  await dialog.getByLabel('Unit 2 memory in GiB').fill('94');
  // The dialog previews what saving changes against the generation it opened at.
  await expect(dialog.getByTestId('topology-changes').locator('[data-unit-diff]')).toHaveCount(1);
  await expect(dialog.getByTestId('topology-changes').locator('[data-unit-diff="gpu-1"]')).toContainText('94 GiB');

  // Meanwhile another operator gives gpu-3 more memory.
  expect(await putTopology(request, 'acme-h100-10', { 'gpu-3': 96 })).toBe(2);

  await dialog.getByRole('button', { name: 'Save topology' }).click();
  await expect(dialog.getByTestId('topology-changed')).toContainText('generation 2');
  await expect(dialog.getByRole('alert').filter({ hasNotText: 'generation 2' })).toHaveCount(0);
  // Against generation 2, the edit would also put gpu-3 back to 80 GiB: the diff says so.
  const diff = dialog.getByTestId('topology-changes');
  await expect(diff.locator('[data-unit-diff="gpu-3"]')).toContainText('96 GiB');
  await expect(diff.locator('[data-unit-diff="gpu-1"]')).toContainText('94 GiB');
  // The operator keeps the other change and saves again.
  await dialog.getByLabel('Unit 4 memory in GiB').fill('96');
  await expect(diff.locator('[data-unit-diff]')).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Save topology' }).click();
  await expect(dialog).toBeHidden();

  const node = (await (await request.get('/v1/nodes/acme-h100-10', { headers: { authorization: `Bearer ${readState().keys.org_platform}` } })).json()) as {
    topologyGen: number;
    units: Unit[];
  };
  expect(node.topologyGen).toBe(3);
  expect(node.units.map((u) => u.memoryGiB)).toEqual([80, 94, 80, 96, 80, 80, 80, 80]);
});

test('Re-affirm…: a topology change after the review is shown as a new diff and asked again', async ({ page, request }) => {
  const state = readState();
  const created = await request.post('/v1/nodes/acme-h100-14/reservations', {
    headers: { authorization: `Bearer ${state.keys.org_acme}` },
    data: { reservedUnitIds: ['gpu-0', 'gpu-1'], allowedOrgIds: ['org_nimbus'], contractRef: 'RACE-E2E' },
  });
  expect(created.status()).toBe(201);
  expect(await putTopology(request, 'acme-h100-14', { 'gpu-1': 94 })).toBe(2);

  await signIn(page, 'olivia@platform.example');
  await page.goto('/nodes/acme-h100-14');
  const card = page.locator('[data-reservation-id]').filter({ hasText: 'RACE-E2E' });
  await expect(card).toContainText('needs-review');
  await card.getByRole('button', { name: /^Re-affirm / }).click();
  const dialog = page.getByRole('dialog');
  const diff = dialog.getByTestId('topology-diff');
  await expect(diff.locator('[data-unit-diff="gpu-1"]')).toContainText('changed');
  await expect(diff.locator('[data-unit-diff]')).toHaveCount(1);
  await dialog.getByLabel(/Reason/).fill('memory upgrade checked');

  // Meanwhile gpu-0 changes too: the operator has not reviewed that.
  expect(await putTopology(request, 'acme-h100-14', { 'gpu-0': 96, 'gpu-1': 94 })).toBe(3);
  await dialog.getByRole('button', { name: 'Re-affirm reservation' }).click();
  await expect(dialog.getByTestId('topology-changed')).toContainText('generation 3');
  await expect(diff.locator('[data-unit-diff="gpu-0"]')).toContainText('96 GiB');
  await expect(diff.locator('[data-unit-diff]')).toHaveCount(2);
  await expect(card).toContainText('needs-review');
  // The reason typed stays; confirming again re-affirms against generation 3.
  await expect(dialog.getByLabel(/Reason/)).toHaveValue('memory upgrade checked');
  await dialog.getByRole('button', { name: 'Re-affirm reservation' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('active');
});
