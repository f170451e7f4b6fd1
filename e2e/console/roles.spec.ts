import { expect, test } from '@playwright/test';
import { readState } from '../support/state';
import { managedSpotNode, signIn, unit } from './support';

/** A tRPC mutation as the console's client sends it (superjson input, same origin). */
const trpcMutation = (path: string, input: unknown) => ({
  url: `/api/trpc/${path}`,
  data: JSON.stringify({ json: input }),
  headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
});

test('a viewer of Helix sees the Nimbus node and is offered nothing; a forged reclaim answers 403', async ({ page, request }) => {
  const { nodeId, reservationId } = await managedSpotNode(request, 'viewer');
  await signIn(page, 'vera@helix.example');
  await expect(page.getByTestId('acting-org')).toContainText('Helix Capacity Partners');
  await expect(page.getByTestId('acting-role')).toHaveText('viewer');
  await expect(page.getByTestId('role-hint')).toContainText('Your role in Helix Capacity Partners is viewer');
  // Members, keys and webhooks are the admins': not even linked.
  await expect(page.getByRole('link', { name: 'API keys' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Members' })).toHaveCount(0);

  await page.goto(`/nodes/${nodeId}`);
  await expect(unit(page, 'gpu-2')).toHaveAttribute('data-state', 'spot-occupied');
  // Helix manages the reservation, so its admins reclaim; its viewer is offered no action at all
  // (the grid, with nothing to act on, is not even a selection).
  await expect(unit(page, 'gpu-2')).not.toHaveAttribute('aria-pressed', /.*/);
  await expect(page.getByRole('button', { name: 'Reclaim…' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Release…' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Terminate/ })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/roles-viewer-node.png', fullPage: true });

  // The API refuses what the console does not offer: a forged tRPC reclaim, with the viewer's cookie.
  const forged = trpcMutation('reservations.reclaim', { nodeId, reservationId, unitIds: ['gpu-2'], dryRun: true });
  const res = await page.request.post(forged.url, { data: forged.data, headers: { ...forged.headers, origin: new URL(page.url()).origin } });
  expect(res.status()).toBe(403);
  expect(JSON.stringify(await res.json())).toContain('Your role in this org is viewer');
  // Nor marks a notification read: the notifications page shows no button.
  await page.goto('/notifications');
  await expect(page.getByRole('button', { name: /Mark as read/ })).toHaveCount(0);
});

test('a read-scoped key lists nodes and is refused a reclaim dry run with insufficient_scope', async ({ request }) => {
  const { nodeId, reservationId } = await managedSpotNode(request, 'scoped');
  const helix = { authorization: `Bearer ${readState().keys.org_helix}` };
  const made = await request.post('/v1/api-keys', { headers: helix, data: { name: `read-only-${Date.now()}`, scopes: ['read'] } });
  expect(made.status()).toBe(201);
  const { secret, scopes } = (await made.json()) as { secret: string; scopes: string[] };
  expect(scopes).toEqual(['read']);
  const readOnly = { authorization: `Bearer ${secret}` };
  expect((await request.get('/v1/nodes', { headers: readOnly })).status()).toBe(200);
  const refused = await request.post(`/v1/nodes/${nodeId}/reservations/${reservationId}/reclaim`, {
    headers: readOnly,
    data: { unitIds: ['gpu-2'], dryRun: true },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'insufficient_scope', scope: 'reservations:write' });
  // Checked before the body: a malformed one is refused the same way.
  const early = await request.post(`/v1/nodes/${nodeId}/reservations/${reservationId}/reclaim`, {
    headers: { ...readOnly, 'content-type': 'application/json' },
    data: '{',
  });
  expect(((await early.json()) as { code: string }).code).toBe('insufficient_scope');
  // No key grants a scope it lacks.
  const wider = await request.post('/v1/api-keys', { headers: readOnly, data: { name: 'wider' } });
  expect(((await wider.json()) as { code: string }).code).toBe('insufficient_scope');
});

test('an admin changes a member’s role on the members page, and that member’s open page stops offering reclaim at its next refresh', async ({
  page,
  browser,
  request,
}) => {
  const { nodeId } = await managedSpotNode(request, 'demoted');
  // Sam acts as Helix (the first of his orgs by id), an admin since roles began.
  const samContext = await browser.newContext();
  const sam = await samContext.newPage();
  try {
    await signIn(sam, 'sam@helix.example');
    await expect(sam.getByTestId('acting-org')).toContainText('org_helix');
    await sam.goto(`/nodes/${nodeId}`);
    await unit(sam, 'gpu-2').click();
    await expect(sam.getByRole('button', { name: 'Reclaim…' })).toBeVisible();

    await signIn(page, 'mark@helix.example');
    await expect(page.getByTestId('acting-role')).toHaveText('admin');
    await page.getByRole('link', { name: 'Members' }).click();
    await expect(page.getByRole('heading', { name: 'Members of Helix Capacity Partners' })).toBeVisible();
    const vera = page.locator('[data-member-id="user_vera"]');
    await expect(vera.getByRole('combobox')).toHaveValue('viewer');
    const samRow = page.locator('[data-member-id="user_sam"]');
    await samRow.getByRole('combobox').selectOption('viewer');
    await expect(page.getByTestId('members-outcome')).toHaveText('Sam Switcher is now a viewer of Helix Capacity Partners.');
    await expect(samRow.getByRole('combobox')).toHaveValue('viewer');
    await page.screenshot({ path: 'test-results/roles-members-page.png', fullPage: true });

    // The node page renders again every 5 s: the next render offers Sam nothing.
    await expect(sam.getByRole('button', { name: 'Reclaim…' })).toHaveCount(0, { timeout: 15_000 });
    await expect(sam.getByTestId('acting-role')).toHaveText('viewer');

    // Back to admin, as the demo had him.
    await samRow.getByRole('combobox').selectOption('admin');
    await expect(samRow.getByRole('combobox')).toHaveValue('admin');

    // An invitation link, shown once.
    await page.getByRole('button', { name: 'Make an invitation link' }).click();
    await expect(page.getByTestId('invite-link')).toContainText('/invite/');
    await expect(page.getByTestId('invite-table').locator('[data-invite-id]')).not.toHaveCount(0);
    await page.getByTestId('invite-table').locator('[data-invite-id]').first().getByRole('button', { name: 'Withdraw' }).click();
    await expect(page.getByTestId('members-outcome')).toHaveText('The member invitation no longer works.');
  } finally {
    await samContext.close();
  }
});
