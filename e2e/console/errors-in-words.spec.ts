import { expect, test, type Locator } from '@playwright/test';
import { asOrg, freshNode, signIn } from './support';

// Issue 20.2, errors in words (docs/product.md §6): every problem the console shows is a sentence
// for a person, beside the field it names (by its label), scrolled into view — never transport or
// schema words. The API's problem details are unchanged (e2e/api and the unit tests pin them).

/** What must never reach a person: transport names, schema paths, codes in parentheses. */
const internal = /superjson|\binput\.|\bbody\.|startsAt|endsAt|memoryGiB|\(\d{3} [a-z_]+\)/;

async function expectNoInternalWords(where: Locator) {
  expect(await where.innerText()).not.toMatch(internal);
}

test('Register node: a memory that is not a number is said beside that unit, in view, in words', async ({ page }) => {
  await signIn(page, 'olivia@platform.example');
  await page.getByRole('button', { name: 'Register node…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Node id').fill(`e2e-words-${Date.now().toString(36)}`);
  await dialog.getByLabel('Name').fill('E2E words');
  const owner = dialog.getByRole('group', { name: /Owner org/ });
  await owner.getByLabel(/Search orgs/).fill('Acme');
  await owner.getByRole('option', { name: /^Add Acme/ }).click();
  await dialog.getByLabel('Unit 3 memory in GiB').fill('abc');
  await dialog.getByRole('button', { name: 'Register node' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await expectNoInternalWords(dialog);
  const problem = dialog.locator('[data-field-error]').first();
  await expect(problem).toHaveText('Memory (GiB) of unit 3 must be a whole number from 1 to 65536, such as 80.');
  await expect(problem).toBeInViewport();
  await expect(dialog.getByLabel('Unit 3 memory in GiB')).toHaveAttribute('aria-invalid', 'true');
});

test('Edit: an end before the start is said beside "Ends at" in words', async ({ page, request }) => {
  const nodeId = await freshNode(request, 'e2e-words-edit');
  const r = await asOrg<{ id: string }>(
    request,
    'org_acme',
    'post',
    `/v1/nodes/${nodeId}/reservations`,
    { reservedUnitIds: ['gpu-0'], allowedOrgIds: ['org_nimbus'] },
    201,
  );
  await signIn(page, 'alice@acme.example');
  await page.goto(`/nodes/${nodeId}`);
  await page.getByRole('button', { name: `Edit ${r.id}…` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Open-ended').uncheck();
  await dialog.getByLabel('Ends at').fill('2020-01-01T00:00');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await expectNoInternalWords(dialog);
  const problem = dialog.locator('[data-field-error]').first();
  await expect(problem).toHaveText('Must be after the start.');
  await expect(problem).toBeInViewport();
  await expect(dialog.getByRole('alert')).toContainText('Ends at (UTC) must be after the start.');
});

test('Audit: a "since" the API refuses is said under the Since filter, in words', async ({ page }) => {
  await signIn(page, 'olivia@platform.example');
  await page.goto('/audit?since=yesterday');
  await expect(page.locator('main').getByRole('alert')).toBeVisible();
  await expectNoInternalWords(page.locator('main'));
  const filters = page.getByRole('form', { name: 'Filters' });
  await expect(filters.locator('[data-field-error]')).toHaveText('Must be a date and time, such as 2026-12-01 00:00.');
  await expect(page.locator('main').getByRole('alert')).toHaveText('Since (UTC) must be a date and time, such as 2026-12-01 00:00.');
});

test('a page’s own problem and its stale banner are said in words: a VM link no VM can have, a page link gone out of view', async ({ page, request }) => {
  await signIn(page, 'olivia@platform.example');
  await page.goto('/vms/-no-such-vm');
  await expect(page.locator('main')).toContainText('VM must be 1–128 characters');
  await expectNoInternalWords(page.locator('main'));
  await page.context().clearCookies();

  // Page 2 of Helix's trail on a node, from a link naming an event of a reservation Helix
  // manages; the owner then takes Helix off it, and the page's next refresh is refused.
  const nodeId = await freshNode(request, 'e2e-words-stale');
  const r = await asOrg<{ id: string }>(
    request,
    'org_acme',
    'post',
    `/v1/nodes/${nodeId}/reservations`,
    { reservedUnitIds: ['gpu-0'], allowedOrgIds: ['org_nimbus'], managingOrgIds: ['org_helix'] },
    201,
  );
  const trail = await asOrg<{ items: { id: string; action: string }[] }>(request, 'org_helix', 'get', `/v1/audit?nodeId=${nodeId}`, undefined);
  const created = trail.items.find((e) => e.action === 'reservation.create')!;
  // A cursor as the API makes them (server/pagination.ts encodeCursor): the key of the page's last row.
  const cursor = Buffer.from(JSON.stringify({ k: created.id })).toString('base64url');
  await signIn(page, 'mark@helix.example');
  await page.clock.install();
  await page.goto(`/audit?nodeId=${nodeId}&cursor=${cursor}`);
  await expect(page.getByTestId('audit-table')).toContainText('No event matches these filters.');
  await asOrg(request, 'org_acme', 'patch', `/v1/nodes/${nodeId}/reservations/${r.id}`, { managingOrgIds: [] });
  // Every page refreshes every 30 s (the layout's AutoRefresh).
  await page.clock.fastForward(31_000);
  const banner = page.getByTestId('refresh-failed');
  await expect(banner).toContainText('The page link is invalid (it may be out of date): go back to the first page.');
  expect(await banner.innerText()).not.toMatch(/cursor|malformed/i);
  await expectNoInternalWords(page.locator('main'));
});
