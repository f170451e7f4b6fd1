import { expect, test } from '@playwright/test';
import { signIn, signInOverHttp, TRPC_LIST_NODES } from './support';

test('a session cookie saved before sign-out is refused after it, on pages and on tRPC', async ({ page, browser, baseURL }) => {
  await signIn(page, 'alice@acme.example');
  const saved = await page.context().storageState();

  // The saved copy works while the session is live, so the refusals below are sign-out's doing.
  const before = await browser.newContext({ baseURL, storageState: saved });
  const beforePage = await before.newPage();
  await beforePage.goto('/nodes/acme-h100-01');
  await expect(beforePage.locator('[data-unit-id]')).toHaveCount(8);
  expect((await before.request.get(TRPC_LIST_NODES)).status()).toBe(200);
  await before.close();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  const replay = await browser.newContext({ baseURL, storageState: saved });
  const replayPage = await replay.newPage();
  await replayPage.goto('/nodes/acme-h100-01');
  await expect(replayPage).toHaveURL(`${baseURL}/sign-in?next=${encodeURIComponent('/nodes/acme-h100-01')}`);
  await expect(replayPage.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const trpc = await replay.request.get(TRPC_LIST_NODES);
  expect(trpc.status()).toBe(401);
  // Auth.js's own session endpoint agrees: the session is over (found by the adversarial review).
  const session = await replay.request.get('/api/auth/session');
  expect(session.status()).toBe(200);
  expect(await session.json()).toBeNull();
  await replay.close();
});

test('"Sign out everywhere" ends the session in every other browser too', async ({ page, browser, baseURL }) => {
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await signIn(otherPage, 'tom@orbit.example');
  await signIn(page, 'tom@orbit.example');
  // Someone else's session is not touched.
  const bystander = await browser.newContext({ baseURL });
  await signIn(await bystander.newPage(), 'ana@nimbus.example');

  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  await otherPage.goto('/nodes/acme-h100-01');
  await expect(otherPage).toHaveURL(/\/sign-in\?next=/);
  expect((await other.request.get(TRPC_LIST_NODES)).status()).toBe(401);
  expect((await bystander.request.get(TRPC_LIST_NODES)).status()).toBe(200);
  await other.close();
  await bystander.close();
});

test('signing out through Auth.js’s own endpoint ends the session too', async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  expect((await signInOverHttp(api, 'mark@helix.example')).status()).toBe(302);
  expect((await api.get(TRPC_LIST_NODES)).status()).toBe(200);
  const saved = await api.storageState();
  const { csrfToken } = (await (await api.get('/api/auth/csrf')).json()) as { csrfToken: string };
  expect((await api.post('/api/auth/signout', { form: { csrfToken }, maxRedirects: 0 })).status()).toBe(302);
  await api.dispose();

  const replay = await playwright.request.newContext({ baseURL, storageState: saved });
  expect((await replay.get(TRPC_LIST_NODES)).status()).toBe(401);
  await replay.dispose();
});

// Plain http, and behind a proxy that ends TLS (it says so in X-Forwarded-Proto): Auth.js then
// names its cookie `__Secure-…` and marks it Secure, and the acting-org cookie must follow.
for (const [where, headers, secure] of [
  ['over plain http', {}, false],
  ['behind a TLS-terminating proxy', { 'x-forwarded-proto': 'https' }, true],
] as const) {
  test(`the acting-org cookie carries the session cookie’s flags ${where}`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, extraHTTPHeaders: headers });
    // Through Auth.js's endpoint: the sign-in form's redirect would follow the proxy to https.
    expect((await signInOverHttp(context.request, 'sam@helix.example')).status()).toBe(302);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Switch org').selectOption('org_zephyr');
    await expect(page.getByTestId('acting-org')).toContainText('org_zephyr');
    const jar = await context.cookies();
    const session = jar.find((c) => /authjs\.session-token$/.test(c.name));
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure });
    expect(jar.find((c) => c.name === 'gpu_acting_org')).toMatchObject({ value: 'org_zephyr', httpOnly: true, sameSite: 'Lax', path: '/', secure });
    await context.close();
  });
}
