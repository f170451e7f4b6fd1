/**
 * Bounded API keys (issue 18; docs/product.md §2 "manage the org's API keys", §5 Rate limit and
 * Objects, §9.3) on real PostgreSQL: at most 100 active keys per org, counted under the org's
 * row lock so concurrent creations never overshoot; at most 20 creations a minute; every key's
 * requests also count against its org's budget, in the authentication statement itself; and
 * who made a key, or an event, shows to the key's own org.
 */
import { insertUser } from '@/db/factories';
import { apiKeys, rateLimitWindows } from '@/db/schema';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as schema from '@/db/schema';
import * as keysRoute from '@/app/v1/api-keys/route';
import * as auditRoute from '@/app/v1/audit/route';
import * as nodesRoute from '@/app/v1/nodes/route';
import * as reservationRoute from '@/app/v1/nodes/[nodeId]/reservations/[id]/route';
import { systemCtx, type Ctx } from '../context';
import type { DomainError } from '../errors';
import { callRoute, issueKeys } from '../testing/rest';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, ORG, T0 } from '../testing/scene';
import { createCaller } from '../trpc/root';
import { authenticateApiKey } from './authenticate';
import { createApiKey } from './create';
import { issueApiKey } from './internal';
import { MAX_ACTIVE_API_KEYS_PER_ORG } from './limits';
import { listApiKeys } from './list';
import { revokeApiKey } from './revoke';

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DomainError,
  );
const minutesAgo = (m: number, from: Date = T0) => new Date(from.getTime() - m * 60_000);
const userCtx = (db: Ctx['db'], orgId: string, userId: string, now: Date = T0): Ctx => ({ orgId, actor: { kind: 'user', userId }, via: 'console', db, now });

afterEach(() => vi.unstubAllEnvs());

describe('at most 100 active keys per org', () => {
  const scene = useFreshScene();
  const db = () => scene().db;

  /** `n` active keys of `orgId`, made long enough ago that the creation rate does not count them. */
  async function fill(orgId: string, n: number) {
    for (let i = 0; i < n; i++) await issueApiKey(db(), { orgId, name: `old-${i}`, now: minutesAgo(60) });
  }
  const active = async (orgId: string) =>
    (
      await db()
        .select({ n: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt)))
    )[0]!.n;

  it('10 concurrent creations at 95 active: exactly 5 succeed, 5 are 409 limit_reached with `limit`', async () => {
    await fill(ORG.owner, 95);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: `race-${i}` } }).then(
          () => 'created',
          (e: DomainError) => e,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(5);
    const refused = outcomes.filter((o): o is DomainError => o !== 'created');
    expect(refused).toHaveLength(5);
    for (const e of refused) {
      expect(e.code).toBe('limit_reached');
      expect(e.httpStatus).toBe(409);
      expect(e.extras).toEqual({ limit: 100 });
      expect(e.detail).toMatch(/100 active API keys/);
    }
    expect(await active(ORG.owner)).toBe(MAX_ACTIVE_API_KEYS_PER_ORG);
    // One org's cap is not another's.
    expect((await createApiKey({ ctx: ctxFor(db(), ORG.other, T0), input: { name: 'theirs' } })).name).toBe('theirs');
  });

  it('counts active keys only: revoking one makes room for one', async () => {
    await fill(ORG.owner, 100);
    expect((await failure(createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'one too many' } })))?.code).toBe('limit_reached');
    const [oldest] = (await listApiKeys({ ctx: ctxFor(db(), ORG.owner, T0), input: { limit: 1 } })).items;
    await revokeApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { apiKeyId: oldest!.id } });
    expect((await createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'room' } })).name).toBe('room');
    expect((await failure(createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'again' } })))?.code).toBe('limit_reached');
    expect(await active(ORG.owner)).toBe(100);
  });

  it('answers 409 problem+json over REST and tRPC alike, creating nothing', async () => {
    await fill(ORG.owner, 99);
    const keys = await issueKeys(db(), [ORG.owner]);
    const res = await callRoute(keysRoute.POST, { method: 'POST', path: '/v1/api-keys', key: keys[ORG.owner], body: { name: 'over' } });
    expect(res.status, res.text).toBe(409);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json).toMatchObject({ status: 409, code: 'limit_reached', title: 'Limit reached', limit: 100, type: '/problems/limit_reached' });
    const caller = createCaller({ db: db(), principal: { orgId: ORG.owner, actor: { kind: 'user', userId: 'u' }, via: 'console' }, now: T0 });
    const viaTrpc = await caller.apiKeys.create({ name: 'over' }).then(
      () => null,
      (e: { code?: string; cause?: DomainError }) => e,
    );
    expect(viaTrpc?.code).toBe('CONFLICT');
    expect(viaTrpc?.cause?.toProblem()).toMatchObject({ code: 'limit_reached', limit: 100 });
    expect(await active(ORG.owner)).toBe(100);
  });
});

describe('key creation is rate-limited per org (API_KEY_CREATIONS_PER_ORG_PER_MINUTE, default 20)', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  const create = (at: Date, orgId: string = ORG.owner) => createApiKey({ ctx: ctxFor(db(), orgId, at), input: { name: 'k' } });

  it('refuses the 21st key within a minute with 429 and when to retry; revoked ones count; the window slides', async () => {
    for (let s = 0; s < 20; s++) {
      const key = await create(new Date(T0.getTime() + s * 1000));
      if (s < 5) await revokeApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { apiKeyId: key.id } });
    }
    const at = new Date(T0.getTime() + 30_000);
    const refused = await failure(create(at));
    expect(refused?.code).toBe('rate_limited');
    expect(refused?.httpStatus).toBe(429);
    // The oldest of the 20 (at T0) leaves the window at T0 + 60 s: 30 s from `at`.
    expect(refused?.retryAfterSeconds).toBe(30);
    expect(refused?.detail).toMatch(/created 20 API keys within the last minute, the most it may; retry in 30 s/);
    expect(await failure(create(at, ORG.other))).toBeNull();
    expect((await failure(create(new Date(T0.getTime() + 59_999))))?.code).toBe('rate_limited');
    expect(await failure(create(new Date(T0.getTime() + 60_000)))).toBeNull();
  });

  it('0 turns it off; another number sets it', async () => {
    vi.stubEnv('API_KEY_CREATIONS_PER_ORG_PER_MINUTE', '0');
    for (let i = 0; i < 25; i++) await create(T0);
    vi.stubEnv('API_KEY_CREATIONS_PER_ORG_PER_MINUTE', '2');
    expect(await failure(create(T0, ORG.other))).toBeNull();
    expect(await failure(create(T0, ORG.other))).toBeNull();
    expect((await failure(create(T0, ORG.other)))?.code).toBe('rate_limited');
  });

  it('over REST: 429 problem+json with Retry-After', async () => {
    vi.stubEnv('API_KEY_CREATIONS_PER_ORG_PER_MINUTE', '1');
    // Issued two minutes ago: every key made within the minute counts, however it was made.
    const { secret } = await issueApiKey(db(), { orgId: ORG.owner, name: 'bootstrap', now: minutesAgo(2, new Date()) });
    const post = () => callRoute(keysRoute.POST, { method: 'POST', path: '/v1/api-keys', key: secret, body: { name: 'fast' } });
    expect((await post()).status).toBe(201);
    const limited = await post();
    expect(limited.status, limited.text).toBe(429);
    expect(limited.headers.get('content-type')).toBe('application/problem+json');
    expect(limited.json).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });
});

describe('an org-wide budget: RATE_LIMIT_PER_ORG_PER_MINUTE (default 1200) beside the per-key one', () => {
  // Transports read PostgreSQL's clock: the scene is built around now.
  const scene = useFreshScene(() => new Date());
  const db = () => scene().db;
  beforeAll(() => {
    process.env.PLATFORM_ORG_ID = ORG.platform;
  });

  /** Windows are calendar minutes: start a test early enough in one that it ends in it. */
  async function earlyInAMinute() {
    const [row] = await db().execute<{ s: number }>(sql`select extract(second from now())::float8 as s`);
    if (row!.s > 45) await new Promise((r) => setTimeout(r, (61 - row!.s) * 1000));
  }
  const get = (key: string) => callRoute(nodesRoute.GET, { path: '/v1/nodes', key });

  it('counts every key of an org against the org’s budget; the 429 says it was the org’s', async () => {
    vi.stubEnv('RATE_LIMIT_PER_ORG_PER_MINUTE', '5');
    const a = (await issueApiKey(db(), { orgId: ORG.owner, name: 'a', now: new Date() })).secret;
    const b = (await issueApiKey(db(), { orgId: ORG.owner, name: 'b', now: new Date() })).secret;
    const theirs = (await issueApiKey(db(), { orgId: ORG.other, name: 'c', now: new Date() })).secret;
    await earlyInAMinute();
    for (const key of [a, a, a, b, b]) expect((await get(key)).status).toBe(200);
    for (const key of [a, b]) {
      const limited = await get(key);
      expect(limited.status).toBe(429);
      expect(limited.json).toMatchObject({ code: 'rate_limited' });
      expect(limited.json.detail).toMatch(/the 5 requests its org's keys share for this minute/);
      expect(limited.json.detail).not.toMatch(/its own/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Another org's keys have their own budget.
    expect((await get(theirs)).status).toBe(200);
  });

  it('the per-key budget still holds, and its 429 says it was the key’s', async () => {
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '2');
    vi.stubEnv('RATE_LIMIT_PER_ORG_PER_MINUTE', '100');
    const a = (await issueApiKey(db(), { orgId: ORG.owner, name: 'a', now: new Date() })).secret;
    const b = (await issueApiKey(db(), { orgId: ORG.owner, name: 'b', now: new Date() })).secret;
    await earlyInAMinute();
    for (let i = 0; i < 2; i++) expect((await get(a)).status).toBe(200);
    const limited = await get(a);
    expect(limited.status).toBe(429);
    expect(limited.json.detail).toMatch(/its own 2 requests for this minute/);
    expect((await get(b)).status).toBe(200);
    // Both spent: the detail names both.
    vi.stubEnv('RATE_LIMIT_PER_ORG_PER_MINUTE', '4');
    expect((await get(a)).json.detail).toMatch(/its own 2 requests and the 4 requests its org's keys share/);
  });

  it('is counted in the authentication statement itself: one round trip, whichever budgets are on', async () => {
    const secret = (await issueApiKey(db(), { orgId: ORG.owner, name: 'a', now: new Date() })).secret;
    const sent: string[] = [];
    const client = postgres(scene().url, { max: 1, onnotice: () => {}, debug: (_c, query) => void sent.push(query) });
    try {
      const traced = drizzle(client, { schema });
      for (const [perKey, perOrg] of [
        ['600', '1200'],
        ['0', '1200'],
        ['600', '0'],
        ['0', '0'],
      ] as const) {
        vi.stubEnv('RATE_LIMIT_PER_MINUTE', perKey);
        vi.stubEnv('RATE_LIMIT_PER_ORG_PER_MINUTE', perOrg);
        // Twice: the first request of a window also forgets the old windows (once a minute).
        await authenticateApiKey(traced, `Bearer ${secret}`);
        sent.length = 0;
        const auth = await authenticateApiKey(traced, `Bearer ${secret}`);
        expect(auth?.principal.orgId).toBe(ORG.owner);
        expect(sent, `${perKey}/${perOrg}`).toHaveLength(1);
        expect(/org_window/.test(sent[0]!), `${perKey}/${perOrg}`).toBe(perOrg !== '0');
        expect(/key_window/.test(sent[0]!), `${perKey}/${perOrg}`).toBe(perKey !== '0');
      }
    } finally {
      await client.end();
    }
    const windows = await db().select().from(rateLimitWindows);
    expect(windows.map((w) => w.keyId).sort()).toEqual([expect.stringMatching(/^key_/), `org:${ORG.owner}`].sort());
  });
});

describe('who made a key, and which key acted (shown to the key’s own org)', () => {
  const scene = useFreshScene(() => new Date());
  const db = () => scene().db;
  beforeAll(() => {
    process.env.PLATFORM_ORG_ID = ORG.platform;
  });

  it('createdBy names the user, the key or the job that created it, and is omitted for keys from before', async () => {
    await insertUser(db(), { id: 'u-alice', email: 'alice@owner.example', name: 'Alice Owner', passwordHash: 'x', orgIds: [ORG.owner] });
    const now = new Date();
    const seedKey = await issueApiKey(db(), { orgId: ORG.owner, name: 'seed key', now: minutesAgo(10, now) });
    const byUser = await createApiKey({ ctx: userCtx(db(), ORG.owner, 'u-alice', minutesAgo(5, now)), input: { name: 'by alice' } });
    expect(byUser.createdBy).toEqual({ kind: 'user', userId: 'u-alice', name: 'Alice Owner' });
    const byKey = await callRoute(keysRoute.POST, { method: 'POST', path: '/v1/api-keys', key: seedKey.secret, body: { name: 'by the seed key' } });
    expect(byKey.status, byKey.text).toBe(201);
    expect(byKey.json.createdBy).toEqual({ kind: 'api_key', id: seedKey.id, name: 'seed key', prefix: seedKey.row.prefix });
    const byJob = await createApiKey({ ctx: systemCtx(db(), 'seed', now), input: { name: 'by a job' } });
    expect(byJob.createdBy).toEqual({ kind: 'system', job: 'seed' });
    // A user since deleted: the id stays, the name is gone.
    await insertUser(db(), { id: 'u-gone', email: 'gone@owner.example', name: 'Gone', passwordHash: 'x', orgIds: [ORG.owner] });
    const byGone = await createApiKey({ ctx: userCtx(db(), ORG.owner, 'u-gone', now), input: { name: 'by gone' } });
    await db().delete(schema.users).where(eq(schema.users.id, 'u-gone'));

    const listed = await callRoute(keysRoute.GET, { path: '/v1/api-keys', key: seedKey.secret });
    expect(listed.status).toBe(200);
    const byName = Object.fromEntries((listed.json.items as { name: string; createdBy?: unknown }[]).map((k) => [k.name, k]));
    expect(byName['by alice']!.createdBy).toEqual({ kind: 'user', userId: 'u-alice', name: 'Alice Owner' });
    expect(byName['by the seed key']!.createdBy).toEqual({ kind: 'api_key', id: seedKey.id, name: 'seed key', prefix: seedKey.row.prefix });
    expect(byName['by gone']!.createdBy).toEqual({ kind: 'user', userId: 'u-gone' });
    expect(byGone.id).toBeTruthy();
    // Omitted, never null, for a key no creator was recorded for.
    expect(byName['seed key']).not.toHaveProperty('createdBy');
    expect(listed.text).not.toContain('null');
    // The platform's own key (made by a job) is the platform's to see.
    const platform = await listApiKeys({ ctx: ctxFor(db(), ORG.platform, now), input: {} });
    expect(platform.items.map((k) => k.createdBy)).toEqual([{ kind: 'system', job: 'seed' }]);
    // Revoking answers the key with its creator too.
    const revoked = await revokeApiKey({ ctx: ctxFor(db(), ORG.owner, now), input: { apiKeyId: String(byKey.json.id) } });
    expect(revoked.createdBy).toEqual({ kind: 'api_key', id: seedKey.id, name: 'seed key', prefix: seedKey.row.prefix });
  });

  it('never names another org’s key as a creator', async () => {
    const theirs = await issueApiKey(db(), { orgId: ORG.other, name: 'their secret project', now: new Date() });
    const mine = await issueApiKey(db(), { orgId: ORG.owner, name: 'mine', now: new Date() });
    await db().update(apiKeys).set({ createdByApiKeyId: theirs.id }).where(eq(apiKeys.id, mine.id));
    const [view] = (await listApiKeys({ ctx: ctxFor(db(), ORG.owner, new Date()), input: {} })).items;
    expect(view).not.toHaveProperty('createdBy');
    expect(JSON.stringify(view)).not.toContain('their secret project');
  });

  it('an event an API key made shows that key’s name and prefix to the key’s org only', async () => {
    const keys = await issueKeys(db(), [ORG.owner, ORG.platform, ORG.managing]);
    const edit = await callRoute(reservationRoute.PATCH, {
      method: 'PATCH',
      path: '/v1/nodes/n1/reservations/r1',
      params: { nodeId: 'n1', id: 'r1' },
      key: keys[ORG.owner],
      body: { contractRef: 'C-2' },
    });
    expect(edit.status, edit.text).toBe(200);
    const [ownerKey] = await db()
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.orgId, ORG.owner), eq(apiKeys.name, 'test')));
    const eventAs = async (orgId: string) => {
      const res = await callRoute(auditRoute.GET, { path: '/v1/audit?reservationId=r1', key: keys[orgId] });
      expect(res.status).toBe(200);
      return (res.json.items as Record<string, unknown>[]).find((e) => e.action === 'reservation.update')!;
    };
    expect((await eventAs(ORG.owner)).actorKey).toEqual({ id: ownerKey!.id, name: 'test', prefix: ownerKey!.prefix });
    // The operator and the managing org see the event and who acted (§2), but not which key.
    for (const orgId of [ORG.platform, ORG.managing]) {
      const e = await eventAs(orgId);
      expect(e.actorOrgId, orgId).toBe(ORG.owner);
      expect(e, orgId).not.toHaveProperty('actorKey');
    }
    // A console user's events name no key.
    const caller = createCaller({ db: db(), principal: { orgId: ORG.owner, actor: { kind: 'user', userId: 'u' }, via: 'console' } });
    await caller.reservations.update({ nodeId: 'n1', reservationId: 'r1', contractRef: 'C-3' });
    const page = await caller.audit.list({ reservationId: 'r1' });
    expect(page.items.map((e) => [e.via, e.actorKey?.name ?? null])).toEqual([
      ['console', null],
      ['api', 'test'],
    ]);
  });
});
