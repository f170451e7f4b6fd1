/**
 * Pages agree (issue 20 point 4, docs/product.md §6): the reservation page offers what the node
 * page offers on it; the VM page says why a VM ended, in the reclaimer's words, and offers
 * Terminate… where the VM's org may; a VM's status reads once; an org shows by name where the
 * caller sees its id; a topology change rings the operator's bell for each reservation it puts
 * in needs-review. Each test registers a node of its own through the public API, so it shares no
 * state with the other specs on the shared server.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readState } from '../support/state';
import { signIn, unit } from './support';

const units = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5' }));

/** A call to the public API as `org`'s demo key; @returns the parsed body after checking the status. */
async function api<T = Record<string, unknown>>(
  request: APIRequestContext,
  org: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: unknown,
  status = 200,
) {
  const res = await request.fetch(path, { method, headers: { authorization: `Bearer ${readState().keys[org]}` }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

/** An Acme node of 4 units with one reservation of them all for Nimbus, managed by Helix; gpu-2 and gpu-3 released. */
async function stage(request: APIRequestContext) {
  const nodeId = `agree-${randomBytes(4).toString('hex')}`;
  await api(request, 'org_platform', 'POST', '/v1/nodes', { id: nodeId, name: `Agree ${nodeId}`, ownerOrgId: 'org_acme', units: units(4) }, 201);
  const reservationId = 'res-agree';
  await api(
    request,
    'org_acme',
    'POST',
    `/v1/nodes/${nodeId}/reservations`,
    { id: reservationId, reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'], allowedOrgIds: ['org_nimbus'], managingOrgIds: ['org_helix'] },
    201,
  );
  await api(request, 'org_helix', 'POST', `/v1/nodes/${nodeId}/reservations/${reservationId}/release`, { unitIds: ['gpu-2', 'gpu-3'] });
  return { nodeId, reservationId };
}

async function asUser(browser: Browser, baseURL: string | undefined, email: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL })).newPage();
  await signIn(page, email);
  return page;
}

const actionNames = ['Edit…', 'Cancel reservation…', 'Re-affirm…', 'Release…', 'Reclaim…'];

/** The action buttons a page offers on the reservation, by their visible words. */
async function offered(scope: ReturnType<Page['locator']>): Promise<string[]> {
  const words = await scope.getByRole('button').allInnerTexts();
  return actionNames.filter((name) => words.some((w) => w.trim() === name));
}

test('the reservation page offers the node page’s actions on it, per persona', async ({ browser, baseURL, request }) => {
  test.setTimeout(60_000);
  const { nodeId, reservationId } = await stage(request);
  for (const [email, expected] of [
    ['alice@acme.example', ['Edit…', 'Cancel reservation…', 'Release…', 'Reclaim…']],
    ['mark@helix.example', ['Release…', 'Reclaim…']],
    ['ana@nimbus.example', []],
  ] as const) {
    const page = await asUser(browser, baseURL, email);
    await page.goto(`/nodes/${nodeId}`);
    await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'reserved');
    const onNode = [
      ...(await offered(page.locator(`[data-reservation-id="${reservationId}"]`))),
      ...(await offered(page.getByRole('region', { name: 'Units' }))),
    ];
    expect(onNode, `${email} on the node page`).toEqual(expected);
    await page.goto(`/nodes/${nodeId}/reservations/${reservationId}`);
    await expect(page.getByTestId('field-status')).toContainText('active');
    expect.soft(await offered(page.locator('main')), `${email} on the reservation page`).toEqual(expected);
    if (email === 'mark@helix.example') {
      // Reclaim… from the reservation page previews its released units, as the grid's does.
      await page.getByRole('button', { name: 'Reclaim…' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText('gpu-2, gpu-3');
      await expect(dialog.getByTestId('preview-terminate')).toContainText('No spot VM runs on these units.');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
    await page.context().close();
  }
});

test('an org shows by name where the caller sees its id: the reservation’s fields, and a chip names it once', async ({ browser, baseURL, request }) => {
  const { nodeId, reservationId } = await stage(request);
  const alice = await asUser(browser, baseURL, 'alice@acme.example');
  await alice.goto(`/nodes/${nodeId}/reservations/${reservationId}`);
  await expect.soft(alice.getByTestId('field-allowed-orgs')).toContainText('Nimbus AI');
  await expect.soft(alice.getByTestId('field-managing-orgs')).toContainText('Helix Capacity Partners');
  await alice.goto(`/nodes/${nodeId}`);
  await expect.soft(alice.locator(`[data-reservation-id="${reservationId}"]`)).toContainText('Nimbus AI');
  // Edit…: the audience's chip names the org by name, its id once.
  await alice.getByRole('button', { name: `Edit ${reservationId}…` }).click();
  const chip = alice
    .getByRole('dialog')
    .getByRole('button', { name: /^Remove / })
    .first()
    .locator('..');
  await expect(chip).toContainText('org_nimbus');
  expect((await chip.innerText()).match(/org_nimbus/g) ?? [], await chip.innerText()).toHaveLength(1);
  await expect(chip).toContainText('Nimbus AI');
  await alice.context().close();
});

test('an org shows by name where the caller sees its id: the node’s owner, a VM’s org (its own and the operator only), audit actors', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(60_000);
  const { nodeId } = await stage(request);
  const vm = await api<{ id: string }>(request, 'org_orbit', 'POST', '/v1/vms', { nodeId, unitIds: ['gpu-2'], tier: 'spot' }, 201);
  const eventRow = (page: Page, action: string) =>
    page.locator('[data-event-id]').filter({ has: page.getByTestId('event-action').getByText(action, { exact: true }) });

  // The managing org: the node's owner by name; the tenant's VM on a unit it manages, never its org.
  const mark = await asUser(browser, baseURL, 'mark@helix.example');
  await mark.goto(`/nodes/${nodeId}`);
  await expect(mark.locator('main p').filter({ hasText: ' · owner ' })).toContainText(`${nodeId} · owner Acme Compute org_acme · 4 units`);
  await expect(mark.locator(`[data-vm-id="${vm.id}"]`)).toContainText('another org');
  await expect(mark.locator('main')).not.toContainText(/Orbit Labs|org_orbit/);
  await mark.goto(`/audit?nodeId=${nodeId}`);
  await expect(eventRow(mark, 'reservation.release')).toContainText('Helix Capacity Partners');
  await expect(eventRow(mark, 'reservation.create')).toContainText('Acme Compute');
  await mark.context().close();

  // The owner: the fleet names owners (and the owner filter); the tenant's actions show without it.
  const alice = await asUser(browser, baseURL, 'alice@acme.example');
  await alice.goto('/?owner=org_acme');
  await expect(alice.getByTestId('owner-filter')).toContainText('Nodes owned by Acme Compute org_acme');
  await expect(alice.locator('tbody tr').first()).toContainText('Acme Compute');
  await alice.goto(`/audit?nodeId=${nodeId}`);
  await expect(eventRow(alice, 'node.register')).toContainText('Platform Operations');
  await expect(eventRow(alice, 'vm.place')).toContainText('another org');
  await expect(alice.locator('main')).not.toContainText(/Orbit Labs|org_orbit/);
  await alice.goto(`/vms/${vm.id}`);
  await expect(alice.getByTestId('vm-status')).toHaveText('running');
  await expect(alice.locator('main')).not.toContainText(/Orbit Labs|org_orbit/);
  await alice.context().close();

  // The VM's own org and the operator: its org by name, on the VM page, the VM list and the node page.
  const tom = await asUser(browser, baseURL, 'tom@orbit.example');
  await tom.goto(`/vms?nodeId=${nodeId}`);
  await expect(tom.locator(`[data-vm-id="${vm.id}"]`)).toContainText('Orbit Labs org_orbit');
  await tom.goto(`/vms/${vm.id}`);
  await expect(tom.locator('[data-field="Org"]')).toHaveText('Orbit Labs org_orbit');
  await tom.context().close();
  const olivia = await asUser(browser, baseURL, 'olivia@platform.example');
  await olivia.goto(`/nodes/${nodeId}`);
  await expect(olivia.locator(`[data-vm-id="${vm.id}"]`)).toContainText('Orbit Labs org_orbit');
  await olivia.goto(`/audit?nodeId=${nodeId}`);
  await expect(eventRow(olivia, 'vm.place')).toContainText('Orbit Labs');
  await olivia.context().close();
});

test('the VM page says why a VM ended in the reclaimer’s words and offers Terminate… to its org; statuses read once', async ({ browser, baseURL, request }) => {
  test.setTimeout(60_000);
  const { nodeId, reservationId } = await stage(request);
  const reclaimed = await api<{ id: string }>(request, 'org_orbit', 'POST', '/v1/vms', { nodeId, unitIds: ['gpu-2'], tier: 'spot' }, 201);
  await api(request, 'org_helix', 'POST', `/v1/nodes/${nodeId}/reservations/${reservationId}/reclaim`, {
    unitIds: ['gpu-2'],
    reason: 'Nimbus needs gpu-2 back',
  });
  const running = await api<{ id: string }>(request, 'org_orbit', 'POST', '/v1/vms', { nodeId, unitIds: ['gpu-3'], tier: 'spot' }, 201);

  const tom = await asUser(browser, baseURL, 'tom@orbit.example');
  await tom.goto(`/vms?nodeId=${nodeId}`);
  await expect.soft(tom.locator(`[data-vm-id="${reclaimed.id}"]`).getByTestId('vm-status')).toHaveText('reclaimed');
  await tom.goto(`/vms/${reclaimed.id}`);
  await expect.soft(tom.getByTestId('vm-status')).toHaveText('reclaimed');
  await expect.soft(tom.locator('main')).toContainText('Nimbus needs gpu-2 back');
  await expect(tom.getByRole('button', { name: 'Terminate…' })).toHaveCount(0);

  await tom.goto(`/vms/${running.id}`);
  await expect(tom.getByTestId('vm-status')).toHaveText('running');
  await tom.getByRole('button', { name: 'Terminate…' }).click();
  await tom.getByRole('dialog').getByRole('button', { name: 'Terminate VM' }).click();
  await expect(tom.getByTestId('vm-status')).toHaveText('terminated by its owner', { timeout: 5_000 });
  await tom.goto(`/vms?nodeId=${nodeId}`);
  await expect(tom.locator(`[data-vm-id="${running.id}"]`).getByTestId('vm-status')).toHaveText('terminated by its owner');
  await tom.context().close();

  // Another org sees neither VM; the node owner sees the reclaimed one, its reason, and no Terminate….
  const alice = await asUser(browser, baseURL, 'alice@acme.example');
  await alice.goto(`/vms/${reclaimed.id}`);
  await expect(alice.getByTestId('vm-status')).toHaveText('reclaimed');
  await expect(alice.locator('main')).toContainText('Nimbus needs gpu-2 back');
  await alice.context().close();
});

test('a topology change rings the operator’s bell once for each reservation it puts in needs-review', async ({ browser, baseURL, request }) => {
  test.setTimeout(60_000);
  const { nodeId, reservationId } = await stage(request);
  const changed = units(4).map((u, i) => (i === 1 ? { ...u, model: 'H200-SXM5' } : u));
  await api(request, 'org_platform', 'PUT', `/v1/nodes/${nodeId}/topology`, { units: changed });
  // The same list again changes nothing, and says nothing.
  await api(request, 'org_platform', 'PUT', `/v1/nodes/${nodeId}/topology`, { units: changed });
  type Listed = { items: { kind: string; details: Record<string, unknown>; message: string }[] };
  const mine = (l: Listed) => l.items.filter((n) => n.details.nodeId === nodeId);
  expect(mine(await api<Listed>(request, 'org_platform', 'GET', '/v1/notifications'))).toEqual([
    expect.objectContaining({ kind: 'reservation.needs_review', details: expect.objectContaining({ nodeId, reservationId, topologyGen: 2 }) }),
  ]);
  // Addressed to the platform only: the owner and the audience hear nothing of it.
  for (const org of ['org_acme', 'org_nimbus', 'org_helix']) expect(mine(await api<Listed>(request, org, 'GET', '/v1/notifications')), org).toEqual([]);

  const olivia = await asUser(browser, baseURL, 'olivia@platform.example');
  await olivia.goto('/notifications');
  const row = olivia.locator('[data-notification-kind="reservation.needs_review"]').filter({ hasText: nodeId });
  await expect(row).toContainText(reservationId);
  await expect(row.getByRole('link', { name: reservationId })).toHaveAttribute('href', `/nodes/${nodeId}/reservations/${reservationId}`);
  await olivia.context().close();
});
