import { request as playwrightRequest, type APIRequestContext, type APIResponse } from '@playwright/test';
import { conforming, expect, test } from '../support/api';
import { signInOverHttp } from '../console/support';
import { E2E_PORT } from '../support/state';

// A server action another site submits (a `Next-Action` POST, or a form POST as a form action
// sends it without JavaScript) is refused by proxy.ts with 403 problem+json `forbidden`, before
// Next decodes it — Next itself answered 500 ("Invalid Server Actions request.") to a foreign
// Origin, and ran one whose Sec-Fetch-Site said cross-site when its Origin matched. Issue 18;
// docs/product.md §6, §9.3. The action is a real one with an effect to watch: the org switcher's,
// as Sam (a member of three orgs) with a real session cookie.

const SITE = `http://127.0.0.1:${E2E_PORT}`;
const crossSite: Record<string, string>[] = [
  { origin: 'https://evil.example' },
  { origin: 'null' },
  { origin: `${SITE}.evil.example` },
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
  // Next compares Origin with Host only: this one it would have run.
  { 'sec-fetch-site': 'cross-site', origin: SITE },
];
const sameSite = { origin: SITE, 'sec-fetch-site': 'same-origin' };

let api: APIRequestContext;
let switchOrgActionId: string;

/** The acting org the console's header shows for this session. */
async function actingOrg(): Promise<string> {
  const html = await (await api.get('/', { headers: { 'sec-fetch-site': 'same-origin' } })).text();
  return /data-testid="acting-org"[\s\S]*?font-mono[^>]*>([^<]+)</.exec(html)?.[1] ?? 'none';
}

/** The org switcher's form action, posted as a form without JavaScript posts it. */
const switchForm = (orgId: string, headers: Record<string, string>) =>
  api.post('/', { headers, multipart: { [`$ACTION_ID_${switchOrgActionId}`]: '', orgId, back: '/' }, maxRedirects: 0 });

test.beforeAll(async () => {
  api = conforming(await playwrightRequest.newContext({ baseURL: SITE }));
  expect((await signInOverHttp(api, 'sam@helix.example')).status()).toBe(302);
  // The switcher's form carries its action's id (progressive enhancement).
  const html = await (await api.get('/', { headers: { 'sec-fetch-site': 'same-origin' } })).text();
  const id = /name="\$ACTION_ID_([0-9a-f]+)"(?:(?!<\/form>)[\s\S])*?name="orgId"/.exec(html)?.[1];
  expect(id, 'the page renders the org switcher’s form action').toBeTruthy();
  switchOrgActionId = id!;
  expect(await actingOrg()).toBe('org_helix');
});
test.afterAll(async () => {
  // Leave Sam acting as Helix, as the console specs expect.
  await switchForm('org_helix', sameSite);
  await api.dispose();
});

async function expectForbidden(res: APIResponse, label: string) {
  expect(res.status(), `${label}: ${(await res.text()).slice(0, 200)}`).toBe(403);
  expect(res.headers()['content-type'], label).toBe('application/problem+json');
  const problem = (await res.json()) as { status: number; code: string; detail: string };
  expect(problem, label).toMatchObject({ status: 403, code: 'forbidden' });
  expect(problem.detail, label).toMatch(/another site/);
}

test('a cross-site form action is 403 problem+json and does not run, with a real session cookie', async () => {
  for (const headers of crossSite) {
    await expectForbidden(await switchForm('org_zephyr', headers), `form ${JSON.stringify(headers)}`);
    expect(await actingOrg(), `switched by ${JSON.stringify(headers)}`).toBe('org_helix');
  }
});

test('a cross-site Next-Action call is 403 as well, whatever the page and the action id', async () => {
  for (const headers of crossSite) {
    const res = await api.post('/', {
      headers: { 'next-action': switchOrgActionId, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component', ...headers },
      data: '[]',
    });
    await expectForbidden(res, `Next-Action ${JSON.stringify(headers)}`);
  }
  const bogus = await api.post('/nodes/acme-h100-01', {
    headers: { 'next-action': 'ff'.repeat(21), 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example' },
    data: '[]',
  });
  await expectForbidden(bogus, 'unknown action id');
  expect(await actingOrg()).toBe('org_helix');
});

test('the same form action from this site runs (the 403s above refused a real one)', async () => {
  const res = await switchForm('org_zephyr', sameSite);
  expect(res.status(), (await res.text()).slice(0, 200)).toBe(303);
  expect(await actingOrg()).toBe('org_zephyr');
});
