import { expect, test, type Page } from '@playwright/test';
import { signIn, signInOverHttp } from './support';

// Every way of naming another site that a browser would follow, and one page of ours that
// must be kept whole. Each is tried as sign-in's `next`, as the org switcher's `back` and as
// the `callbackUrl` of Auth.js's own endpoint.
const HOSTILE = ['/\\evil.example', '/\t/evil.example', '//evil.example', 'https://evil.example', 'javascript:alert(1)'];
const LEGIT = '/nodes/acme-h100-02?x=1#y';

/** Records what would show that the browser left the site or ran the payload. */
function watchForEscape(page: Page) {
  const escapes: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('data:') && new URL(r.url()).hostname === 'evil.example') escapes.push(r.url());
  });
  page.on('dialog', (d) => {
    escapes.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return escapes;
}

test.describe('sign-in returns only to a page of this site', () => {
  for (const next of HOSTILE) {
    test(`next=${JSON.stringify(next)} lands on the fleet`, async ({ page, baseURL }) => {
      const escapes = watchForEscape(page);
      await signIn(page, 'alice@acme.example', next);
      expect(page.url()).toBe(`${baseURL}/`);
      expect(escapes).toEqual([]);
    });
  }

  test('a page of this site is kept with its query and hash', async ({ page, baseURL }) => {
    await signIn(page, 'alice@acme.example', LEGIT);
    await expect(page.getByRole('heading', { name: /Acme H100 #02/ })).toBeVisible();
    expect(page.url()).toBe(`${baseURL}${LEGIT}`);
  });

  test('a signed-in visitor of the sign-in page goes on to `next`, and only within the site', async ({ page, baseURL }) => {
    await signIn(page, 'alice@acme.example');
    await page.goto(`/sign-in?next=${encodeURIComponent('/\\evil.example')}`);
    await expect(page.getByTestId('acting-org')).toBeVisible();
    expect(page.url()).toBe(`${baseURL}/`);
    await page.goto(`/sign-in?next=${encodeURIComponent(LEGIT)}`);
    await expect(page.getByRole('heading', { name: /Acme H100 #02/ })).toBeVisible();
    expect(page.url()).toBe(`${baseURL}${LEGIT}`);
  });
});

test.describe('the org switcher returns only to a page of this site', () => {
  /** Switches to the other of Sam's first two orgs with `back` set to `back`, as a crafted form would. */
  async function switchWithBack(page: Page, back: string) {
    await page.goto('/');
    const target = (await page.getByTestId('acting-org').textContent())?.includes('org_helix') ? 'org_nimbus' : 'org_helix';
    await page.locator('form:has(#org-switcher) input[name="back"]').evaluate((el, value) => {
      (el as HTMLInputElement).value = value;
    }, back);
    await page.getByLabel('Switch org').selectOption(target);
    await expect(page.getByTestId('acting-org')).toContainText(target);
  }

  for (const back of HOSTILE) {
    test(`back=${JSON.stringify(back)} returns to the fleet`, async ({ page, baseURL }) => {
      const escapes = watchForEscape(page);
      await signIn(page, 'sam@helix.example');
      await switchWithBack(page, back);
      expect(page.url()).toBe(`${baseURL}/`);
      expect(escapes).toEqual([]);
    });
  }

  test('a page of this site is kept with its query and hash', async ({ page, baseURL }) => {
    await signIn(page, 'sam@helix.example');
    await switchWithBack(page, LEGIT);
    await expect(page.getByRole('heading', { name: /Acme H100 #02/ })).toBeVisible();
    expect(page.url()).toBe(`${baseURL}${LEGIT}`);
  });
});

test('Auth.js’s own sign-in endpoint redirects only within the site (callbacks.redirect)', async ({ playwright, baseURL }) => {
  const site = new URL(baseURL!);
  for (const callbackUrl of [...HOSTILE, LEGIT]) {
    const api = await playwright.request.newContext({ baseURL });
    const res = await signInOverHttp(api, 'tom@orbit.example', callbackUrl);
    expect(res.status(), callbackUrl).toBe(302);
    const location = new URL(res.headers().location!);
    // On its own route handlers Auth.js names the site by the URL Next.js gives the request,
    // which under `next start -H 127.0.0.1` says localhost: the same server either way.
    expect(['127.0.0.1', 'localhost'], callbackUrl).toContain(location.hostname);
    expect([location.protocol, location.port], callbackUrl).toEqual([site.protocol, site.port]);
    expect(location.pathname + location.search + location.hash, callbackUrl).toBe(callbackUrl === LEGIT ? LEGIT : '/');
    await api.dispose();
  }
});
