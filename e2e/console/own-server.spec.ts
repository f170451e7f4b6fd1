/**
 * What only a production server of this file's own can show (issue 20): the tests stop the
 * server, or lock an account out, which every test of the shared server would feel. One
 * database and one instance (scripts/stress/fleet.ts, as the storm starts its instances):
 * - an open node page, a dialog open with typed text, outlives a restart of its server: it says
 *   "Reconnecting…", keeps what it shows, and is current again within 5 s of the server's return
 *   (docs/product.md §6) — never the browser's error page;
 * - a lockout of a known account rings the operator's bell (`sign_in.lockout`), once;
 * - a deploy (the server back as a new deployment) under open pages: one holding a dialog and
 *   typed text stays as it is and offers "A new version is available — Reload"; one holding
 *   nothing reloads into the new build by itself (docs/reliability.md "A deploy under an open page").
 */
import { expect, request as playwrightRequest, test, type Browser, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { killInstance, restartInstance } from '../../scripts/stress/fleet';
import { useOwnServer } from '../support/own-server';
import { DEMO_PASSWORD, unit } from './support';

test.describe.configure({ mode: 'serial', timeout: 90_000 });

const server = useOwnServer();

/** A new browser signed in as `email` on this file's server, through the form. */
async function signInHere(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.base });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('acting-org')).toBeVisible();
  return page;
}

test('a restart under an open node page with a dialog open: "Reconnecting…", the page, dialog and typed text kept, current again within 5 s of the return', async ({
  browser,
}) => {
  const page = await signInHere(browser, 'mark@helix.example');
  await page.goto('/nodes/acme-h100-03');
  await expect(unit(page, 'gpu-1')).toHaveAttribute('data-state', 'reserved');
  // Where the tab went other than this page (the browser's error page is chrome-error://…); a
  // refresh's same-document update of this URL is no navigation away.
  const documents: string[] = [];
  page.on('framenavigated', (f) => f === page.mainFrame() && !f.url().endsWith('/nodes/acme-h100-03') && documents.push(f.url()));
  // A mark on this document: a browser navigation (or reload) would lose it.
  await page.evaluate(() => ((window as unknown as { kept: string }).kept = 'this document'));
  await unit(page, 'gpu-1').click();
  await page.getByRole('button', { name: 'Release…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('release-preview')).toBeVisible();
  await dialog.getByLabel(/Reason/).fill('typed before the restart');

  await killInstance(server.instances[0]!);
  // The node page renders again every 5 s: those renders find no server. Down long enough for
  // two of them (the page was gone 3–5 s after the stop).
  await page.waitForTimeout(8_000);
  expect(documents, 'no browser navigation').toEqual([]);
  await expect(dialog.getByLabel(/Reason/)).toHaveValue('typed before the restart');
  const status = page.getByTestId('connection-status');
  await expect(status).toHaveAttribute('role', 'status');
  await expect(status).toContainText('Reconnecting…');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Meanwhile the node changed: the page shows it once the server is back.
  await server.database.db.execute(sql`update nodes set name = 'renamed while the server was down' where id = 'acme-h100-03'`);

  await restartInstance(server.instances, server.instances[0]!);
  const back = performance.now();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('renamed while the server was down', { timeout: 5_000 });
  await expect(status).toHaveCount(0, { timeout: 5_000 });
  console.log(`server back: the page was current again after ${(performance.now() - back).toFixed(0)} ms`);
  expect(await page.evaluate(() => (window as unknown as { kept?: string }).kept)).toBe('this document');
  expect(documents, 'no browser navigation').toEqual([]);
  await expect(dialog.getByLabel(/Reason/)).toHaveValue('typed before the restart');
  // The dialog still works against the new server.
  await dialog.getByRole('button', { name: 'Release 1 unit to the spot market' }).click();
  await expect(dialog.getByTestId('release-summary')).toBeVisible();
  await expect(unit(page, 'gpu-1')).toHaveAttribute('data-state', 'released');
  await page.context().close();
});

test('a lockout of a known account rings the operator’s bell once; an unknown email’s rings nothing', async ({ browser }) => {
  const guess = async (email: string, times: number) => {
    const api = await playwrightRequest.newContext();
    for (let i = 0; i < times; i++) {
      const { csrfToken } = (await (await api.get(`${server.base}/api/auth/csrf`)).json()) as { csrfToken: string };
      await api.post(`${server.base}/api/auth/callback/credentials`, { form: { csrfToken, email, password: `guess-${i}`, callbackUrl: '/' }, maxRedirects: 0 });
    }
    await api.dispose();
  };
  // Ten failures lock Tom's account; two more, refused while locked, lock nothing new.
  await guess('tom@orbit.example', 12);
  await guess('nobody-here@orbit.example', 10);
  type Listed = { items: { kind: string; message: string; details: Record<string, unknown> }[] };
  const notices = async (org: string) =>
    ((await (await fetch(`${server.base}/v1/notifications`, { headers: { authorization: `Bearer ${server.keys[org]}` } })).json()) as Listed).items.filter(
      (n) => n.kind === 'sign_in.lockout',
    );
  expect(await notices('org_platform')).toEqual([
    expect.objectContaining({ details: expect.objectContaining({ scope: 'account', email: 'tom@orbit.example', userId: 'user_tom', failures: 10 }) }),
  ]);
  expect(await notices('org_orbit')).toEqual([]);

  const olivia = await signInHere(browser, 'olivia@platform.example');
  await expect(olivia.getByTestId('notification-bell')).toHaveAttribute('aria-label', 'Notifications, 1 unread');
  await olivia.getByTestId('notification-bell').click();
  const row = olivia.locator('[data-notification-kind="sign_in.lockout"]');
  await expect(row).toContainText('tom@orbit.example');
  await expect(row.getByRole('link', { name: 'Locked sign-ins' })).toHaveAttribute('href', '/sign-ins');
  await olivia.context().close();
});

test('a deploy under open pages: a dialog with typed text is kept, with "A new version is available — Reload"; a page holding nothing reloads into it', async ({
  browser,
}) => {
  const mark = async (p: Page) => p.evaluate(() => ((window as unknown as { kept: string }).kept = 'this document'));
  // Asked during a reload, the answer is its document's: none until it is there.
  const marked = async (p: Page) => p.evaluate(() => (window as unknown as { kept?: string }).kept ?? null).catch(() => 'reloading');
  const page = await signInHere(browser, 'mark@helix.example');
  await page.goto('/nodes/acme-h100-06');
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'reserved');
  await mark(page);
  await unit(page, 'gpu-0').click();
  await page.getByRole('button', { name: 'Release…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('release-preview')).toBeVisible();
  await dialog.getByLabel(/Reason/).fill('typed before the deploy');
  const idle = await (await page.context().newPage()).goto('/nodes/acme-h100-09').then((r) => r!.frame().page());
  await expect(idle.getByRole('heading', { level: 1 })).toBeVisible();
  await mark(idle);

  await killInstance(server.instances[0]!);
  await restartInstance(server.instances, server.instances[0]!, { NEXT_DEPLOYMENT_ID: 'e2e-next-deploy' });
  const notice = page.getByTestId('new-version');
  await expect(notice).toContainText('A new version is available', { timeout: 15_000 });
  await expect(notice).toHaveAttribute('role', 'status');
  expect(await marked(page), 'no reload under the dialog').toBe('this document');
  await expect(dialog.getByLabel(/Reason/)).toHaveValue('typed before the deploy');
  // The page with nothing in hand went on to the new build by itself.
  await expect.poll(() => marked(idle), { timeout: 15_000 }).toBeNull();
  await expect(idle.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(idle.getByTestId('new-version')).toHaveCount(0);

  // The dialog still does its work, against the new server; then the person reloads when ready
  // (the notice sits behind the open dialog, which keeps the page inert, until it closes).
  await dialog.getByRole('button', { name: 'Release 1 unit to the spot market' }).click();
  await expect(dialog.getByTestId('release-summary')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => marked(page)).toBeNull();
  await expect(unit(page, 'gpu-0')).toHaveAttribute('data-state', 'released');
  await expect(page.getByTestId('new-version')).toHaveCount(0);
  await page.context().close();
});
