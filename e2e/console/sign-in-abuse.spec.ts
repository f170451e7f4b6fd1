/**
 * Sign-in under attack (docs/product.md §9.3), against a production server of this file's own:
 * these tests spend budgets every test of the shared server would feel (an account's lockout,
 * the CPU guard, the site-wide failure budget), so they get a database and an instance to
 * themselves (scripts/stress/fleet.ts, as the storm starts its instances).
 * - a flood of 64 concurrent sign-ins for unknown emails is refused at once (429) past the
 *   password checks the instance runs at once, leaves API calls at their usual latency, and a
 *   browser the account knows signs in during it;
 * - a third party's ten failures lock Ana's account for unknown browsers only: Ana's browser
 *   signs in; the operator sees the lock and lifts it, audited as `sign_in.unlock`.
 */
import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { useOwnServer } from '../support/own-server';
import { DEMO_PASSWORD } from './support';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const server = useOwnServer();

/** One credentials sign-in through Auth.js's own endpoint, as a program sends it; timed from its send. */
async function postSignIn(api: APIRequestContext, csrfToken: string, email: string, password: string) {
  const started = performance.now();
  const res = await api.post(`${server.base}/api/auth/callback/credentials`, { form: { csrfToken, email, password, callbackUrl: '/' }, maxRedirects: 0 });
  return { status: res.status(), location: res.headers().location ?? '', retryAfter: res.headers()['retry-after'], ms: performance.now() - started };
}

async function csrf(api: APIRequestContext): Promise<string> {
  return ((await (await api.get(`${server.base}/api/auth/csrf`)).json()) as { csrfToken: string }).csrfToken;
}

type FloodAnswer = { status: number; ms: number; location: string; retryAfter: string | null; wave: number };

/**
 * Starts the flood in its own process (e2e/support/sign-in-flood.ts).
 * @returns once its first wave is out, with the promise of all its answers.
 */
async function startFlood(concurrency: number, ms: number): Promise<Promise<FloodAnswer[]>> {
  const child = spawn('node_modules/.bin/tsx', ['e2e/support/sign-in-flood.ts', server.base, String(concurrency), String(ms)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let started: () => void;
  const running = new Promise<void>((r) => (started = r));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    if (out.includes('started\n')) started();
  });
  const done = new Promise<FloodAnswer[]>((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.slice(out.indexOf('started\n') + 8)) as FloodAnswer[]) : reject(new Error(`the flood exited ${code}`)),
    ),
  );
  await Promise.race([running, done]);
  return done;
}

/** A cheap authenticated API call and its latency. */
async function apiCall(key: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.base}/v1/notifications?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return performance.now() - started;
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;

test('64 concurrent sign-ins for unknown emails: the excess is 429 within 200 ms, API p95 stays within 3× its baseline, a known browser signs in', async () => {
  const ana = await playwrightRequest.newContext();
  try {
    // Ana's browser signed in here before: it holds the known-device cookie.
    const first = await postSignIn(ana, await csrf(ana), 'ana@nimbus.example', DEMO_PASSWORD);
    expect(first.status).toBe(302);
    expect(first.location).not.toContain('error=');
    const cookie = (await ana.storageState()).cookies.find((c) => c.name === 'gpu_known_device');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(300 * 24 * 3600);

    const key = server.keys.org_acme!;
    for (let i = 0; i < 5; i++) await apiCall(key); // warm
    const baseline: number[] = [];
    for (let i = 0; i < 40; i++) baseline.push(await apiCall(key));

    // A burst of 64 at once, then 64 attackers each guessing again as soon as answered, for 1.5 s.
    const flood = await startFlood(64, 1_500);
    const floodEnds = performance.now() + 1_500;
    const during: number[] = [];
    const sampler = (async () => {
      while (performance.now() < floodEnds) during.push(await apiCall(key));
    })();
    await new Promise((r) => setTimeout(r, 50));
    const anaDuring = await postSignIn(ana, await csrf(ana), 'ana@nimbus.example', DEMO_PASSWORD);
    const answers = await flood;
    await sampler;

    const firstWave = answers.filter((a) => a.wave === 0);
    const refused = answers.filter((a) => a.status === 429);
    const fast = (xs: FloodAnswer[]) => xs.filter((a) => a.status === 429 && a.ms <= 200).length;
    console.log(
      `flood: ${answers.length} sign-ins in 1.5 s, ${refused.length} answered 429; first wave of 64: ${firstWave.filter((a) => a.status === 429).length} answered 429, ${fast(firstWave)} within 200 ms; ` +
        `first wave's answers at p50/p87/max ${[32, 56, 63].map((i) => [...firstWave].sort((a, b) => a.ms - b.ms)[i]?.ms.toFixed(0)).join('/')} ms; all ${fast(answers)} within 200 ms; API p95 ${p95(baseline).toFixed(1)} ms before, ${p95(during).toFixed(1)} ms during (${during.length} calls); ` +
        `known browser ${anaDuring.status} in ${anaDuring.ms.toFixed(0)} ms`,
    );
    // The 64 concurrent sign-ins: at most a few reach a password check, the rest are refused at once.
    expect(fast(firstWave)).toBeGreaterThanOrEqual(56);
    // And so on for the rest of the flood (its latencies, logged above, are mostly the attacker's
    // own queue: 64 clients re-sending at once), each 429 saying when to retry.
    expect(refused.length).toBeGreaterThanOrEqual(Math.floor(answers.length * (56 / 64)));
    for (const a of refused) expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    // Every other answer is Auth.js's ordinary "wrong password" redirect: no 5xx, no failed request.
    for (const a of answers.filter((x) => x.status !== 429)) expect(a.location).toContain('error=CredentialsSignin');
    expect(during.length).toBeGreaterThanOrEqual(20);
    expect(p95(during)).toBeLessThanOrEqual(3 * p95(baseline));
    expect(anaDuring.status).toBe(302);
    expect(anaDuring.location).not.toContain('error=');
  } finally {
    await ana.dispose();
  }
});

test('a sign-in that never completes holds no slot, a callback URL cannot fake a refusal, and the sign-in form’s action is guarded at the door too', async () => {
  const url = new URL(server.base);
  const fresh = async () => {
    const api = await playwrightRequest.newContext();
    try {
      return await postSignIn(api, await csrf(api), 'mark@helix.example', DEMO_PASSWORD);
    } finally {
      await api.dispose();
    }
  };
  // Headers and two bytes of a 100-byte body, then the connection closes; and a 20 KB body (413).
  await new Promise<void>((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /api/auth/callback/credentials HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nab`,
      );
      setTimeout(() => socket.destroy(), 50);
    });
    socket.on('close', () => resolve());
  });
  // (the server hears of the close a moment later)
  await new Promise((r) => setTimeout(r, 100));
  const big = await fetch(`${server.base}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'a='.padEnd(20_000, 'x'),
  });
  expect(big.status).toBe(413);
  const after = await fresh();
  expect(after.status).toBe(302);
  expect(after.location).not.toContain('error=');

  // A refusal is what the check decided, not a `code=` the client wrote into its callback URL.
  const api = await playwrightRequest.newContext();
  const res = await api.post(`${server.base}/api/auth/callback/credentials`, {
    form: { csrfToken: await csrf(api), email: 'mark@helix.example', password: DEMO_PASSWORD, callbackUrl: '/?code=paused_86400s' },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);

  // While a password is being checked, 63 posts of the sign-in form: the door sends each back to
  // the form with the busy message (a 303, and Next's server-action redirect header).
  const token = await csrf(api);
  const checking = api.post(`${server.base}/api/auth/callback/credentials`, {
    form: { csrfToken: token, email: 'mark@helix.example', password: 'wrong', callbackUrl: '/' },
    maxRedirects: 0,
  });
  await new Promise((r) => setTimeout(r, 15));
  const form = new URLSearchParams({ email: 'form@nowhere.example', password: 'guess' }).toString();
  const posts = await Promise.all(
    Array.from({ length: 63 }, () =>
      fetch(`${server.base}/sign-in?next=%2Fvms`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        redirect: 'manual',
      }).then(async (r) => {
        await r.arrayBuffer();
        return { status: r.status, location: r.headers.get('location') ?? '', action: r.headers.get('x-action-redirect') ?? '' };
      }),
    ),
  );
  expect((await checking).headers().location).toContain('error=CredentialsSignin');
  await api.dispose();
  const sentBack = posts.filter((p) => p.status === 303 && p.location === '/sign-in?error=1&code=busy_1s&next=%2Fvms');
  expect(sentBack.length, JSON.stringify(posts.slice(0, 3))).toBeGreaterThanOrEqual(56);
  expect(sentBack[0]!.action).toBe('/sign-in?error=1&code=busy_1s&next=%2Fvms;replace');
  expect((await fresh()).status).toBe(302);
});

/** Fills the sign-in form on `page` with the demo password and submits it. */
async function submitSignIn(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A new browser (no cookies) on this file's server, its sign-in form submitted for `email`. */
async function signInThroughForm(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: server.base });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await submitSignIn(page, email);
  return { context, page };
}

test('ten third-party failures lock Ana out of unknown browsers only; her own browser signs in; the operator unlocks her, audited', async ({ browser }) => {
  const email = 'ana@nimbus.example';
  // Ana's browser, known from an earlier sign-in, then signed out.
  const anas = await signInThroughForm(browser, email);
  await expect(anas.page.getByTestId('acting-org')).toBeVisible();
  await anas.page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(anas.page.getByLabel('Email')).toBeVisible();

  // A third party, anywhere, guesses ten times.
  const attacker = await playwrightRequest.newContext();
  for (let i = 0; i < 10; i++) expect((await postSignIn(attacker, await csrf(attacker), email, `guess-${i}`)).location).toContain('error=CredentialsSignin');
  expect((await postSignIn(attacker, await csrf(attacker), email, DEMO_PASSWORD)).location).toContain('code=locked_out_15m');
  await attacker.dispose();
  // One lockout of a known account: one event, for the operator's eyes only.
  const lockouts = async (org: string) =>
    (
      (await (await fetch(`${server.base}/v1/audit?action=sign_in.lockout`, { headers: { authorization: `Bearer ${server.keys[org]}` } })).json()) as {
        items: { details: Record<string, unknown> }[];
      }
    ).items;
  expect((await lockouts('org_platform')).filter((e) => e.details.email === email)).toEqual([
    expect.objectContaining({ details: expect.objectContaining({ scope: 'account', email, failures: 10 }) }),
  ]);
  expect(await lockouts('org_nimbus')).toEqual([]);

  // Ana's own browser is not subject to the account's lockout.
  await submitSignIn(anas.page, email);
  await expect(anas.page.getByTestId('acting-org')).toContainText('Nimbus');

  // A browser the account does not know still is.
  const stranger = await signInThroughForm(browser, email);
  await expect(stranger.page.locator('form p[role=alert]')).toHaveText('Too many failed sign-ins; try again in 15 minutes.');

  // The operator sees the lock and lifts it.
  const operator = await signInThroughForm(browser, 'olivia@platform.example');
  await operator.page.getByRole('link', { name: 'Locked sign-ins' }).click();
  const row = operator.page.locator('[data-locked-sign-in]').filter({ hasText: email });
  await expect(row).toContainText('Unknown browsers');
  await expect(row).toContainText('10');
  await operator.page.getByRole('button', { name: `Unlock ${email}` }).click();
  // The page's own status line (the layout's outcome banner is a status region too, empty here).
  await expect(operator.page.getByRole('status').filter({ hasText: 'Unlocked' })).toHaveText(`Unlocked ${email}: it may sign in from any browser again.`);
  await expect(row).toHaveCount(0);

  const audit = await fetch(`${server.base}/v1/audit?action=sign_in.unlock`, { headers: { authorization: `Bearer ${server.keys.org_platform}` } });
  const items = ((await audit.json()) as { items: { actorOrgId?: string; via: string; details: Record<string, unknown> }[] }).items;
  expect(items).toEqual([
    expect.objectContaining({ actorOrgId: 'org_platform', via: 'console', details: expect.objectContaining({ email, unlocked: ['account'], failures: 10 }) }),
  ]);

  // The stranger's browser may sign in now.
  await submitSignIn(stranger.page, email);
  await expect(stranger.page.getByTestId('acting-org')).toContainText('Nimbus');

  // Nobody but the operator sees the page's data.
  await expect(anas.page.getByRole('link', { name: 'Locked sign-ins' })).toHaveCount(0);
  await anas.page.goto('/sign-ins');
  await expect(anas.page.getByText('Only a platform operator may see and lift sign-in locks.')).toBeVisible();
  for (const s of [anas, stranger, operator]) await s.context.close();
});

test('"Sign out everywhere" forgets the account’s browsers: before it, Tom’s browser gets past a lockout; after it, it is refused too', async ({ browser }) => {
  const email = 'tom@orbit.example';
  const toms = await signInThroughForm(browser, email);
  await expect(toms.page.getByTestId('acting-org')).toBeVisible();
  await toms.page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(toms.page.getByLabel('Email')).toBeVisible();
  const attacker = await playwrightRequest.newContext();
  for (let i = 0; i < 10; i++) await postSignIn(attacker, await csrf(attacker), email, `guess-${i}`);
  await attacker.dispose();
  // The control: a known browser is not subject to the account's lockout.
  await submitSignIn(toms.page, email);
  await expect(toms.page.getByTestId('acting-org')).toBeVisible();
  // Sign out everywhere: from now on the browser is a stranger to the account.
  await toms.page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(toms.page.getByLabel('Email')).toBeVisible();
  await submitSignIn(toms.page, email);
  await expect(toms.page.locator('form p[role=alert]')).toHaveText('Too many failed sign-ins; try again in 15 minutes.');
  await toms.context.close();
});
