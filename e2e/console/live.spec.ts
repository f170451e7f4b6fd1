import postgres from 'postgres';
import { expect, test } from '@playwright/test';
import { readState } from '../support/state';
import { signIn, unit } from './support';

/**
 * Console pages render from server data and stay live by rendering again (issue 10: first-load
 * JS ≤ 150 kB): the node page makes no client data call of its own — a change made elsewhere
 * shows without a reload — and the data layer loads only with a dialog, whose change then shows
 * at once.
 */
test('the node page refreshes by itself with no client data call; a dialog loads the data layer and its change shows at once', async ({ page, request }) => {
  const state = readState();
  const trpcCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/trpc')) trpcCalls.push(r.url());
  });
  await signIn(page, 'mark@helix.example');
  await page.goto('/nodes/acme-h100-03');
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'reserved');

  // Helix releases gpu-0 through the public API, as a program would: the open page shows it
  // within its refresh interval (5 s), without a reload.
  const released = await request.post('/v1/nodes/acme-h100-03/reservations/res-nimbus-fleet-3/release', {
    headers: { authorization: `Bearer ${state.keys.org_helix}` },
    data: { unitIds: ['gpu-0'] },
  });
  expect(released.status(), await released.text()).toBe(200);
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'released', { timeout: 12_000 });
  expect(trpcCalls, 'the page read nothing through the client data layer').toEqual([]);

  // Reclaim it back in the console: the dialog's dry run is the first client call.
  await unit(page, 'gpu-0').click();
  await page.getByRole('button', { name: 'Reclaim…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('preview-terminate')).toContainText('No spot VM runs on these units.');
  expect(trpcCalls.length).toBeGreaterThan(0);
  await dialog.getByRole('button', { name: 'Reclaim 1 unit' }).click();
  await expect(dialog.getByTestId('reclaim-summary')).toBeVisible();
  // The grid behind the dialog already shows the change (the page rendered again).
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'reserved', { timeout: 3_000 });
});

test('a refresh that fails (over the rate limit) keeps the page and an open dialog, says so, and recovers', async ({ page, request }) => {
  test.setTimeout(60_000);
  const sql = postgres(readState().databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await signIn(page, 'mark@helix.example');
    const [user] = await sql<{ id: string }[]>`select id from users where email = 'mark@helix.example'`;
    await page.goto('/nodes/acme-h100-03');
    await unit(page, 'gpu-1').click();
    await page.getByRole('button', { name: 'Release…' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    // Use up this minute and the next for the user: the page's next refresh is refused.
    const windows = sql`select ${`user:${user!.id}`} as key_id, date_trunc('minute', now()) + m * interval '1 minute' as window_start from generate_series(0, 1) m`;
    await sql`insert into rate_limit_windows (key_id, window_start, count) select key_id, window_start, 100000 from (${windows}) w
      on conflict (key_id, window_start) do update set count = 100000`;
    // A change on the node (a program's, over the API: its key's budget, not the user's) makes the page refresh — and fail.
    const change = (verb: 'release' | 'reclaim') =>
      request.post(`/v1/nodes/acme-h100-03/reservations/res-nimbus-fleet-3/${verb}`, {
        headers: { authorization: `Bearer ${readState().keys.org_helix}` },
        data: { unitIds: ['gpu-0'] },
      });
    expect((await change('release')).status()).toBe(200);
    await expect(page.getByTestId('refresh-failed')).toContainText('Could not refresh the node', { timeout: 12_000 });
    await expect(dialog).toBeVisible();
    await expect(page.locator('[data-unit-id]')).toHaveCount(8);
    // The limit lifted, the next refresh clears the notice; the dialog is still there.
    await sql`delete from rate_limit_windows where key_id = ${`user:${user!.id}`}`;
    expect((await change('reclaim')).status()).toBe(200);
    await expect(page.getByTestId('refresh-failed')).toHaveCount(0, { timeout: 12_000 });
    await expect(dialog).toBeVisible();
  } finally {
    await sql.end();
  }
});

/**
 * docs/product.md §5.7 "Live console": the node page follows the acting org's event stream, so a
 * change made elsewhere shows at once — while the stream is open the page polls only every 30 s,
 * so a change that shows well before that came by the stream — and the header says how fresh
 * the view is and how it stays so.
 */
test('the node page follows the event stream: a change over the API shows by itself, and the header says it is live', async ({ page, request }) => {
  const state = readState();
  await signIn(page, 'mark@helix.example');
  await page.goto('/nodes/acme-h100-03');
  await expect(unit(page, 'gpu-1')).toHaveAttribute('data-state', 'reserved');
  const updated = page.getByTestId('last-updated');
  await expect(updated).toHaveAttribute('data-mode', 'live');
  await expect(updated).toContainText('Updated');

  const released = await request.post('/v1/nodes/acme-h100-03/reservations/res-nimbus-fleet-3/release', {
    headers: { authorization: `Bearer ${state.keys.org_helix}` },
    data: { unitIds: ['gpu-1'] },
  });
  expect(released.status(), await released.text()).toBe(200);
  // Well inside the 30 s a live page waits between polls: this is the stream's doing.
  await expect(unit(page, 'gpu-1')).toHaveAttribute('data-state', 'released', { timeout: 10_000 });
  await expect(updated).toContainText(/Updated (just now|\d+ s ago) · live/);
  await page.screenshot({ path: 'test-results/live-header.png' });

  // A spot tenant's VM lands on that unit: the managing org's page shows it live too (vm.placed reaches the holder's managers).
  const placed = await request.post('/v1/vms', {
    headers: { authorization: `Bearer ${state.keys.org_orbit}` },
    data: { nodeId: 'acme-h100-03', unitIds: ['gpu-1'], tier: 'spot' },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  await expect(unit(page, 'gpu-1')).toHaveAttribute('data-state', 'spot-occupied', { timeout: 10_000 });

  // Put it back for the other tests on this node.
  const back = await request.post('/v1/nodes/acme-h100-03/reservations/res-nimbus-fleet-3/reclaim', {
    headers: { authorization: `Bearer ${state.keys.org_helix}` },
    data: { unitIds: ['gpu-1'] },
  });
  expect(back.status(), await back.text()).toBe(200);
  await expect(unit(page, 'gpu-1')).toHaveAttribute('data-state', 'reserved', { timeout: 10_000 });
});

test('the stream is the signed-in console’s only: 401 without a session, 403 from another site, and it ends with its session', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(60_000);
  expect((await request.get('/api/events')).status()).toBe(401);

  const first = await browser.newContext({ baseURL });
  const page = await first.newPage();
  await signIn(page, 'sam@helix.example');
  const crossSite = await page.request.get('/api/events', { headers: { 'sec-fetch-site': 'cross-site' } });
  expect(crossSite.status()).toBe(403);

  // A bare page of this site (no console script of its own), holding one stream.
  await page.goto('/v1/openapi.json');
  await page.evaluate(() => {
    const w = window as unknown as { es: EventSource; opened: number };
    w.opened = 0;
    w.es = new EventSource('/api/events');
    w.es.onopen = () => (w.opened += 1);
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { opened: number }).opened)).toBeGreaterThan(0);

  // The same user signs out everywhere from another browser: the stream ends, and is refused when it comes back.
  const second = await browser.newContext({ baseURL });
  const other = await second.newPage();
  await signIn(other, 'sam@helix.example');
  await other.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(other).toHaveURL(/sign-in/);
  await expect.poll(() => page.evaluate(() => (window as unknown as { es: EventSource }).es.readyState), { timeout: 30_000 }).toBe(2 /* CLOSED */);
  await first.close();
  await second.close();
});
