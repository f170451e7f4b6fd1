import { expect, test, type Page } from '@playwright/test';
import { asOrg, freshNode, signIn, unit } from './support';

// Issue 23 point 3, time on screen: UTC in the server's HTML by default; "Local time" in the
// header remembers the browser's zone in the `tz` cookie and the server renders in it; every
// time labelled with its zone, the other zone on hover; entered times read in the chosen zone;
// the audit filter "until" takes in its whole last minute. The browser runs in Berlin throughout,
// so nothing may silently follow its zone.
const BERLIN = 'Europe/Berlin';
test.use({ timezoneId: BERLIN });

/** A pending reservation's start, in winter: 08:00 UTC is 09:00 CET. */
const STARTS = '2027-01-12T08:00:00.000Z';

/** The preference as the switch leaves it (or a cookie it would never write), for the whole site. */
const setZone = (page: Page, value: string) => page.context().addCookies([{ name: 'tz', value, url: new URL(page.url()).origin }]);

/** What React says of a server render the browser's disagrees with (production: minified errors #418, #423, #425). */
const hydrationProblems = (page: Page) => {
  const said: string[] = [];
  page.on('console', (m) => {
    if (/hydrat|did not match|#418|#423|#425/i.test(m.text())) said.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (/hydrat|#418|#423|#425/i.test(e.message)) said.push(e.message);
  });
  return said;
};

test('UTC in the first HTML by default; Local time renders on the server in the browser’s zone, labelled, UTC on hover, without a hydration mismatch', async ({
  page,
  request,
}) => {
  const nodeId = await freshNode(request, 'tz');
  const r = await asOrg<{ id: string }>(
    request,
    'org_acme',
    'post',
    `/v1/nodes/${nodeId}/reservations`,
    { reservedUnitIds: ['gpu-0'], allowedOrgIds: ['org_nimbus'], startsAt: STARTS },
    201,
  );
  const problems = hydrationProblems(page);
  await signIn(page, 'alice@acme.example');
  const path = `/nodes/${nodeId}/reservations/${r.id}`;

  // The first HTML, as the server sends it: UTC, labelled, inside <time> with the instant.
  const utcHtml = await (await page.context().request.get(path)).text();
  expect(utcHtml).toMatch(new RegExp(`<time dateTime="${STARTS}" title="[^"]+">12 Jan 2027, 08:00 UTC</time>`));
  expect(utcHtml).not.toContain('09:00 CET');

  await page.goto(path);
  const starts = page.getByTestId('field-starts-at').locator('time');
  await expect(starts).toHaveText('12 Jan 2027, 08:00 UTC');
  const zoneSwitch = page.getByRole('form', { name: 'Show times in' });
  await expect(zoneSwitch.getByRole('button', { name: 'UTC' })).toHaveAttribute('aria-pressed', 'true');

  // Local time: the browser's zone goes into the cookie, and the page renders again in it.
  await zoneSwitch.getByRole('button', { name: 'Local time' }).click();
  await expect(starts).toHaveText('12 Jan 2027, 09:00 CET');
  await expect(starts).toHaveAttribute('title', '12 Jan 2027, 08:00 UTC');
  await expect(starts).toHaveAttribute('datetime', STARTS);
  await expect(zoneSwitch.getByRole('button', { name: 'Local time' })).toHaveAttribute('aria-pressed', 'true');
  const cookies = await page.context().cookies();
  // (Next writes cookie values percent-encoded.)
  expect(decodeURIComponent(cookies.find((c) => c.name === 'tz')?.value ?? '')).toBe(BERLIN);

  // The server's HTML is in Berlin time now, the UTC time in its title.
  const berlinHtml = await (await page.context().request.get(path)).text();
  expect(berlinHtml).toContain(`<time dateTime="${STARTS}" title="12 Jan 2027, 08:00 UTC">12 Jan 2027, 09:00 CET</time>`);
  // A fresh load with the cookie hydrates without a mismatch (the server and the browser format alike).
  await page.reload();
  await expect(starts).toHaveText('12 Jan 2027, 09:00 CET');
  await page.goto(`/nodes/${nodeId}`);
  // The node page's reservations panel, hydrated from the same cookie.
  await expect(page.locator(`time[datetime="${STARTS}"]`)).toHaveText('12 Jan 2027, 09:00 CET');
  await page.screenshot({ path: '/tmp/ui23-time/node-berlin.png' });

  // Back to UTC: the page in UTC again, the browser's zone now the other zone on hover.
  await page.goto(path);
  await page.getByRole('form', { name: 'Show times in' }).getByRole('button', { name: 'UTC' }).click();
  await expect(starts).toHaveText('12 Jan 2027, 08:00 UTC');
  await expect(starts).toHaveAttribute('title', '12 Jan 2027, 09:00 CET');
  await page.reload();
  await expect(starts).toHaveText('12 Jan 2027, 08:00 UTC');

  // A cookie naming no zone is UTC.
  await setZone(page, 'Mars/Olympus');
  expect(await (await page.context().request.get(path)).text()).toContain('>12 Jan 2027, 08:00 UTC</time>');
  expect(problems).toEqual([]);
});

test('a start typed as 09:00 with the Berlin preference is stored as 08:00Z; with UTC, as 09:00Z; each field says its zone', async ({ page, request }) => {
  const nodeId = await freshNode(request, 'tzin');
  const problems = hydrationProblems(page);
  await signIn(page, 'alice@acme.example');
  await setZone(page, BERLIN);

  async function reserve(unitId: string, wall: string): Promise<string> {
    await page.goto(`/nodes/${nodeId}`);
    await unit(page, unitId).click();
    await page.getByRole('button', { name: 'Reserve…' }).click();
    const dialog = page.getByRole('dialog');
    const audience = dialog.getByRole('group', { name: /Audience/ });
    await audience.getByLabel(/Search orgs/).fill('Nimbus');
    await audience.getByRole('option', { name: 'Add Nimbus AI' }).click();
    await dialog.getByLabel('later').check();
    await dialog.getByLabel(/Starts at/).fill(wall);
    await dialog.getByRole('button', { name: 'Reserve 1 unit' }).click();
    await expect(dialog).toBeHidden();
    const banner = page.getByTestId('outcome-banner');
    return (await banner.getByRole('link').getAttribute('href'))!.split('/').at(-1)!;
  }

  // Berlin: the field is labelled with the zone, and says the instant in UTC under it.
  await page.goto(`/nodes/${nodeId}`);
  await unit(page, 'gpu-0').click();
  await page.getByRole('button', { name: 'Reserve…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('later').check();
  await expect(dialog.getByLabel('Starts at (Europe/Berlin)')).toBeVisible();
  await dialog.getByLabel(/Starts at/).fill('2027-01-12T09:00');
  await expect(dialog.getByText('That is 12 Jan 2027, 08:00 UTC.')).toBeVisible();
  await dialog.screenshot({ path: '/tmp/ui23-time/reserve-berlin.png' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const inBerlin = await reserve('gpu-0', '2027-01-12T09:00');
  await expect(page.getByTestId('outcome-banner')).toContainText('from 12 Jan 2027, 09:00 CET');
  const stored = await asOrg<{ startsAt: string }>(request, 'org_acme', 'get', `/v1/nodes/${nodeId}/reservations/${inBerlin}`, undefined);
  expect(stored.startsAt).toBe('2027-01-12T08:00:00.000Z');

  await setZone(page, 'UTC');
  const inUtc = await reserve('gpu-1', '2027-01-12T09:00');
  const storedUtc = await asOrg<{ startsAt: string }>(request, 'org_acme', 'get', `/v1/nodes/${nodeId}/reservations/${inUtc}`, undefined);
  expect(storedUtc.startsAt).toBe('2027-01-12T09:00:00.000Z');
  expect(problems).toEqual([]);
});

test('the audit filter "until 21:24" takes in 21:24:xx; the filters are read in the chosen zone and say it', async ({ page, request }) => {
  const nodeId = await freshNode(request, 'tzaudit');
  // An event at some second of a minute: the node's registration.
  const events = await asOrg<{ items: { id: string; at: string }[] }>(request, 'org_acme', 'get', `/v1/audit?nodeId=${nodeId}`, undefined);
  const event = events.items.at(-1)!;
  const minute = event.at.slice(0, 16); // its minute, in UTC: "2026-12-03T12:34"
  const problems = hydrationProblems(page);
  await signIn(page, 'alice@acme.example');

  await page.goto(`/audit?nodeId=${nodeId}`);
  const rows = page.getByTestId('audit-table').locator(`tbody tr[data-event-id="${event.id}"]`);
  await expect(rows).toHaveCount(1);
  await page.getByLabel('Since (UTC)').fill(minute);
  await page.getByLabel('Until (UTC)').fill(minute);
  await page.getByRole('button', { name: 'Filter' }).click();
  // The API's until is exclusive: the URL holds the next minute, the field the minute typed.
  const next = new Date(Date.parse(`${minute}Z`) + 60_000).toISOString();
  await expect(page).toHaveURL(new RegExp(`until=${encodeURIComponent(next)}`));
  await expect(rows).toHaveCount(1);
  await expect(page.getByLabel('Until (UTC)')).toHaveValue(minute);
  await expect(page.getByTestId('until-means')).toHaveText(
    `before ${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(next))} UTC`,
  );

  // The minute before it leaves the event out.
  const before = new Date(Date.parse(`${minute}Z`) - 60_000).toISOString().slice(0, 16);
  await page.getByLabel('Until (UTC)').fill(before);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No event matches these filters.')).toBeVisible();

  // In Berlin time the same minute is an hour later on the wall, and the labels say so.
  await setZone(page, BERLIN);
  const berlinMinute = new Date(Date.parse(`${minute}Z`) + 3_600_000).toISOString().slice(0, 16);
  await page.goto(`/audit?nodeId=${nodeId}`);
  await page.getByLabel('Since (Europe/Berlin)').fill(berlinMinute);
  await page.getByLabel('Until (Europe/Berlin)').fill(berlinMinute);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(new RegExp(`until=${encodeURIComponent(next)}`));
  await expect(rows).toHaveCount(1);
  await expect(rows.locator('time')).toHaveAttribute('datetime', event.at);
  await page.screenshot({ path: '/tmp/ui23-time/audit-berlin.png' });

  // A refused filter names it as it is labelled, with its zone.
  await page.goto('/audit?since=yesterday');
  await expect(page.locator('main').getByRole('alert')).toContainText('Since (Europe/Berlin) must be a date and time');
  expect(problems).toEqual([]);
});
