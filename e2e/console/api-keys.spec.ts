import { expect, test } from '@playwright/test';
import { readState } from '../support/state';
import { signIn } from './support';

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

test('a node owner creates an API key in the console: shown once, it works against /v1, and stops working once revoked', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, 'alice@acme.example');
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  // The demo seed's key of the org is listed, by prefix only.
  await expect(page.getByTestId('api-key-table')).toContainText('demo key');

  // The server's problem for the name shows next to the field.
  await page.getByRole('button', { name: 'Create API key' }).click();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('form', { name: 'Create an API key' }).getByRole('alert')).toHaveText('Name must not be empty.');

  const name = `e2e-console-${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  // A new key reads only unless given more (docs/product.md §2 Scopes): this one may do everything.
  const form = page.getByRole('form', { name: 'Create an API key' });
  await expect(form.getByRole('checkbox', { name: /^Read/ })).toBeChecked();
  for (const scope of [/^Manage reservations/, /^Run VMs/, /^Manage keys and webhooks/]) await form.getByRole('checkbox', { name: scope }).check();
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: `API key “${name}” created` });
  await expect(dialog).toBeVisible();
  const secret = (await dialog.getByTestId('new-key-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^gpuk_[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Copied to the clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.screenshot({ path: 'test-results/api-key-created.png' });

  // The key acts as the org over the public API.
  const node = await request.get('/v1/nodes/acme-h100-01', { headers: bearer(secret) });
  expect(node.status()).toBe(200);
  const keys = await request.get('/v1/api-keys', { headers: bearer(secret) });
  expect(keys.status()).toBe(200);
  expect(((await keys.json()) as { items: { name: string }[] }).items.map((k) => k.name)).toContain(name);
  // It mints a key of its own: the org can tell which key made it (createdBy, actorKey).
  const minted = await request.post('/v1/api-keys', { headers: bearer(secret), data: { name: `${name}-minted` } });
  expect(minted.status()).toBe(201);
  expect(((await minted.json()) as { createdBy: unknown }).createdBy).toMatchObject({ kind: 'api_key', name, prefix: secret.slice(0, 11) });

  // Never again: not after closing, not after a reload.
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(secret)).toHaveCount(0);
  const row = page.locator('[data-api-key-id]').filter({ has: page.getByText(name, { exact: true }) });
  await expect(row).toContainText(`${secret.slice(0, 11)}…`);
  await page.reload();
  expect(await page.content()).not.toContain(secret);
  // It was used above, so "last used" is no longer "never".
  await expect(row.locator('td').nth(5)).not.toHaveText('never');
  await expect(row.locator('td').nth(2)).toHaveText('Read, Manage reservations, Run VMs, Manage keys and webhooks');
  // Who created each: the person, and for the minted one the key (by name and prefix).
  await expect(row.locator('td').nth(4)).toHaveText('Alice Owner');
  const mintedRow = page.locator('[data-api-key-id]').filter({ has: page.getByText(`${name}-minted`, { exact: true }) });
  await expect(mintedRow.locator('td').nth(4)).toHaveText(`key ${name} ${secret.slice(0, 11)}…`);
  await expect(page.locator('[data-api-key-id]', { hasText: 'demo key' }).locator('td').nth(4)).toHaveText('not recorded');
  // The audit trail names the key that minted it, to this org.
  await page.goto('/audit?action=api_key.create');
  const event = page.getByTestId('audit-table').locator('tbody tr[data-event-id]').first();
  await expect(event.getByTestId('actor-key')).toHaveText(`key ${name} ${secret.slice(0, 11)}…`);
  await page.goto('/api-keys');

  await row.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: `Revoke API key “${name}”?` });
  await expect(confirm).toContainText(secret.slice(0, 11));
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText('revoked');
  await expect(row.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/api-keys.png' });

  const refused = await request.get('/v1/nodes/acme-h100-01', { headers: bearer(secret) });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { code: string }).code).toBe('unauthenticated');
});

test('keys are per org: one an org creates over the API shows to it, and not to the operator', async ({ page, request }) => {
  const state = readState();
  const name = `e2e-api-${Date.now()}`;
  const created = await request.post('/v1/api-keys', { headers: bearer(state.keys.org_acme!), data: { name } });
  expect(created.status()).toBe(201);

  await signIn(page, 'olivia@platform.example');
  await page.goto('/api-keys');
  await expect(page.getByTestId('api-key-table')).toContainText('demo key');
  await expect(page.getByTestId('api-key-table')).not.toContainText(name);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signIn(page, 'alice@acme.example', '/api-keys');
  await expect(page.locator('[data-api-key-id]', { hasText: name })).toBeVisible();
  // Prefetched on the server: the list is in the first HTML.
  expect(await (await page.context().request.get('/api-keys')).text()).toContain(name);
});

test('a key typed as one org is never created as another: after a switch in another tab, the submit is refused and the page reloads', async ({
  page,
  context,
  request,
}) => {
  const state = readState();
  await signIn(page, 'sam@helix.example');
  await page.goto('/api-keys');
  await expect(page.getByTestId('acting-org')).toContainText('org_helix');
  const name = `typed-as-helix-${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  const other = await context.newPage();
  await other.goto('/api-keys');
  await other.getByLabel('Switch org').selectOption('org_nimbus');
  await expect(other.getByTestId('acting-org')).toContainText('org_nimbus');
  // The first tab still shows Helix; its submit names Helix, which the session no longer acts as.
  await page.getByRole('button', { name: 'Create API key' }).click();
  await expect(page.getByTestId('acting-org')).toContainText('org_nimbus', { timeout: 10_000 });
  await expect(page.getByLabel('Name')).toHaveValue('');
  for (const org of ['org_nimbus', 'org_helix']) {
    const keys = (await (await request.get('/v1/api-keys?limit=500', { headers: bearer(state.keys[org]!) })).json()) as { items: { name: string }[] };
    expect(
      keys.items.map((k) => k.name),
      org,
    ).not.toContain(name);
  }
  await other.getByLabel('Switch org').selectOption('org_helix');
});
