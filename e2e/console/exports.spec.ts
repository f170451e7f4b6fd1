import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { readState } from '../support/state';
import { signIn } from './support';

const DAY_MS = 24 * 60 * 60 * 1000;

test('the audit page downloads its export: the JSON list of the same filters and window, as CSV', async ({ page, request }) => {
  const acme = { authorization: `Bearer ${readState().keys.org_acme}` };
  // Two events of the node owner's org (issuing API keys), then a window that ends just after the
  // newest: no event another test writes meanwhile falls in it.
  for (const name of ['export-e2e-1', '=HYPERLINK("x")']) expect((await request.post('/v1/api-keys', { headers: acme, data: { name } })).status()).toBe(201);
  const newest = (await (await request.get('/v1/audit?limit=1', { headers: acme })).json()) as { items: { at: string }[] };
  const last = new Date(newest.items[0]!.at);
  const until = new Date(last.getTime() + 1).toISOString();
  const since = new Date(last.getTime() - 7 * DAY_MS).toISOString();
  await signIn(page, 'alice@acme.example');
  await page.goto(`/audit?since=${since}&until=${until}`);
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('form', { name: 'Download' }).getByRole('button', { name: 'Download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-\d{8}T\d{6}(\.\d{3})?Z-\d{8}T\d{6}(\.\d{3})?Z\.csv$/);
  const text = await readFile((await file.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toBe('id,at,action,actorOrgId,actorKeyId,actorKeyName,actorKeyPrefix,via,nodeId,reservationId,unitIds,reason,details');
  const records = parse(text, { columns: true }) as Record<string, string>[];

  // The same rows, in the same order, as the REST JSON list of the node owner's org.
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const res = await request.get(`/v1/audit?since=${since}&until=${until}&limit=500${cursor ? `&cursor=${cursor}` : ''}`, { headers: acme });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { items: { id: string }[]; nextCursor?: string };
    ids.push(...body.items.map((i) => i.id));
    cursor = body.nextCursor;
  } while (cursor);
  expect(ids.length).toBeGreaterThan(0);
  expect(records.map((r) => r.id)).toEqual(ids);
  // The owner's view of a tenant's own action names no tenant (docs/product.md §2), in the file too.
  expect(text).not.toContain('org_orbit');
});

test('the download route answers the signed-in console only, from this site, within 31 days', async ({ page, request }) => {
  // No session: 401; another site's request: 403 — both problem+json, no file.
  const anonymous = await request.get('/exports/audit?since=2026-12-01&until=2026-12-02');
  expect(anonymous.status()).toBe(401);
  expect(anonymous.headers()['content-type']).toBe('application/problem+json');
  await signIn(page, 'alice@acme.example');
  const crossSite = await page.request.get('/exports/vms?since=2026-12-01&until=2026-12-02', { headers: { 'sec-fetch-site': 'cross-site' } });
  expect(crossSite.status()).toBe(403);
  const tooLong = await page.request.get('/exports/vms?since=2026-11-01&until=2026-12-02');
  expect(tooLong.status()).toBe(400);
  expect(((await tooLong.json()) as { errors: { path: string }[] }).errors[0]!.path).toBe('query.until');
  // Days are UTC days, the last one included; NDJSON on asking.
  const ok = await page.request.get('/exports/reservations?role=audience&since=2026-12-01&until=2026-12-07&format=ndjson');
  expect(ok.status()).toBe(200);
  expect(ok.headers()['content-disposition']).toBe('attachment; filename="reservations-20261201T000000Z-20261208T000000Z.ndjson"');
});

test('a download the route refuses comes back to its form, said in words beside the days the user chose', async ({ page }) => {
  await signIn(page, 'alice@acme.example');
  await page.goto('/vms?status=running');
  const form = page.getByRole('form', { name: 'Download' });
  await form.getByLabel('From (UTC day)').fill('2026-10-01');
  await form.getByLabel('To (UTC day, included)').fill('2026-12-01');
  await form.getByRole('button', { name: 'Download' }).click();
  // Back on the VMs page, its filter kept, the refusal named (never text) in the URL.
  await expect(page).toHaveURL(/\/vms\?status=running&exportSince=2026-10-01&exportUntil=2026-12-01&exportError=window-too-long#export-vms-title$/);
  await expect(form.getByRole('alert')).toHaveText('A download covers at most 31 days: choose a To day at most 31 days after From, or download in parts.');
  await expect(form.getByLabel('From (UTC day)')).toHaveValue('2026-10-01');
  await expect(form.getByLabel('From (UTC day)')).toHaveAttribute('aria-invalid', 'true');
  // A name the route never sends is not echoed: the page says its own generic words.
  await page.goto('/audit?exportError=%3Cb%3Eyou+won%3C%2Fb%3E');
  await expect(page.getByRole('form', { name: 'Download' }).getByRole('alert')).toHaveText(
    /^The download was refused: a filter or a day is not one a download takes/,
  );
});
